// SPDX-License-Identifier: Apache-2.0

package mcpserver_test

import (
	"context"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dagu-mcp-gateway/gateway/internal/mcpserver"
	"github.com/dagu-mcp-gateway/gateway/internal/readtool"
	"github.com/dagu-mcp-gateway/gateway/internal/reference"
)

// TestCacheHintsOfTheLists: the lists and server/discover are the same
// for every caller, so public, kept as long as the reference topics (the
// SDK's default would say public and stale at once); a resources/read
// keeps the hints the tool gave it.
func TestCacheHintsOfTheLists(t *testing.T) {
	t.Parallel()
	refs, err := reference.New(reference.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tool, err := readtool.New(readtool.Options{Upstream: noDagu{}, References: refs,
		Lifetimes: readtool.CacheLifetimes{References: 45 * time.Second, Lists: time.Second}})
	if err != nil {
		t.Fatal(err)
	}
	server, err := mcpserver.New("test", tool, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs := connect(t, server)
	ctx := context.Background()
	public45s := mcp.Cacheable{TTLMs: 45_000, CacheScope: "public"}
	lists := map[string]func() (mcp.Cacheable, error){
		"tools/list": func() (mcp.Cacheable, error) { r, err := cs.ListTools(ctx, nil); return cacheableOf(r, err) },
		"prompts/list": func() (mcp.Cacheable, error) {
			r, err := cs.ListPrompts(ctx, nil)
			return cacheableOf(r, err)
		},
		"resources/list": func() (mcp.Cacheable, error) {
			r, err := cs.ListResources(ctx, nil)
			return cacheableOf(r, err)
		},
		"resources/templates/list": func() (mcp.Cacheable, error) {
			r, err := cs.ListResourceTemplates(ctx, nil)
			return cacheableOf(r, err)
		},
		"resources/read of a topic": func() (mcp.Cacheable, error) {
			r, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "dagu://reference/read-tool"})
			return cacheableOf(r, err)
		},
	}
	for name, read := range lists {
		got, err := read()
		if err != nil || got != public45s {
			t.Errorf("%s: %+v (%v), want %+v", name, got, err, public45s)
		}
	}
}

// cacheableOf is the hints of a result.
func cacheableOf(r interface {
	GetTTLMs() int
	GetCacheScope() string
}, err error) (mcp.Cacheable, error) {
	if err != nil {
		return mcp.Cacheable{}, err
	}
	return mcp.Cacheable{TTLMs: r.GetTTLMs(), CacheScope: r.GetCacheScope()}, nil
}
