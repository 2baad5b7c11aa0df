// SPDX-License-Identifier: Apache-2.0

package mcpserver_test

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/dagu-mcp-gateway/gateway/internal/mcpserver"
	"github.com/dagu-mcp-gateway/gateway/internal/readtool"
	"github.com/dagu-mcp-gateway/gateway/internal/readtool/readtooltest"
	"github.com/dagu-mcp-gateway/gateway/internal/reference"
)

// noDagu is an upstream that answers every read unsupported.
type noDagu struct{ readtooltest.Unsupported }

// session serves a tool over noDagu and the embedded reference topics on
// the gateway's MCP server and connects a client to it in memory.
func session(t testing.TB, reg prometheus.Registerer) *mcp.ClientSession {
	t.Helper()
	refs, err := reference.New(reference.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tool, err := readtool.New(readtool.Options{Upstream: noDagu{}, References: refs})
	if err != nil {
		t.Fatal(err)
	}
	server, err := mcpserver.New("test", tool, reg)
	if err != nil {
		t.Fatal(err)
	}
	return connect(t, server)
}

// connect connects a client to server over an in-memory transport.
func connect(t testing.TB, server *mcp.Server) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	serverT, clientT := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, serverT, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "test"}, nil).Connect(ctx, clientT, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close(); _ = ss.Wait() })
	return cs
}
