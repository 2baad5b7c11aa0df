// SPDX-License-Identifier: Apache-2.0

package portcache_test

import (
	"context"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
	"github.com/dagu-mcp-gateway/gateway/internal/portcache"
	"github.com/dagu-mcp-gateway/gateway/internal/readcache"
	"github.com/dagu-mcp-gateway/gateway/internal/readtool"
	"github.com/dagu-mcp-gateway/gateway/internal/readtool/readtooltest"
)

// The layer is the tool's port.
var _ readtool.Upstream = (*portcache.Layer)(nil)

// countingPorts answers specs and names and counts the reads that reach it.
type countingPorts struct {
	readtooltest.Unsupported
	specs, names, runs atomic.Int32
}

func (p *countingPorts) GetDAGSpec(_ context.Context, name string) (*model.DAGSpec, error) {
	p.specs.Add(1)
	if name == "missing" {
		return nil, &model.Failure{Kind: model.FailureNotFound, Field: model.FieldName}
	}
	return &model.DAGSpec{Name: name, Spec: "steps: []", Errors: []string{"e"}}, nil
}

func (p *countingPorts) DAGNames(context.Context) ([]string, error) {
	p.names.Add(1)
	return []string{"a", "b"}, nil
}

func (p *countingPorts) GetRun(context.Context, model.RunAddress) (*model.RunDetail, error) {
	p.runs.Add(1)
	return &model.RunDetail{}, nil
}

// keyOf reads the credential's fingerprint from the context, as the REST
// client does.
type keyOf struct{}

func fingerprint(ctx context.Context) string {
	k, _ := ctx.Value(keyOf{}).(string)
	return k
}

func newLayer(t *testing.T, ttl time.Duration) (*portcache.Layer, *countingPorts) {
	t.Helper()
	inner := &countingPorts{}
	l, err := portcache.New(inner, readcache.DAGsOptions{Fingerprint: fingerprint, CacheTTL: ttl})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(l.WaitRefreshes)
	return l, inner
}

func TestNewNeedsTheInnerPortAndFingerprint(t *testing.T) {
	t.Parallel()
	if _, err := portcache.New(nil, readcache.DAGsOptions{Fingerprint: fingerprint}); err == nil {
		t.Error("no error without an inner port")
	}
	if _, err := portcache.New(&countingPorts{}, readcache.DAGsOptions{}); err == nil {
		t.Error("no error without Fingerprint")
	}
}

// TestSpecsAreCachedPerCredential: a spec is read once per credential and
// name; a failure is never kept; each caller gets its own copy.
func TestSpecsAreCachedPerCredential(t *testing.T) {
	t.Parallel()
	l, inner := newLayer(t, 0)
	a, b := context.WithValue(context.Background(), keyOf{}, "a"), context.WithValue(context.Background(), keyOf{}, "b")
	steps := []struct {
		ctx       context.Context
		name      string
		wantReads int32
	}{
		{a, "x", 1}, {a, "x", 1}, {b, "x", 2}, {b, "x", 2}, {a, "y", 3},
		{a, "missing", 4}, {a, "missing", 5},
	}
	for i, s := range steps {
		spec, err := l.GetDAGSpec(s.ctx, s.name)
		if s.name != "missing" && (err != nil || spec.Name != s.name) {
			t.Fatalf("step %d: %+v, %v", i, spec, err)
		}
		if s.name != "missing" {
			spec.Errors = append(spec.Errors, "changed by the caller")
		}
		if got := inner.specs.Load(); got != s.wantReads {
			t.Errorf("step %d: %d reads reached the inner port, want %d", i, got, s.wantReads)
		}
	}
	again, err := l.GetDAGSpec(a, "x")
	if err != nil || !slices.Equal(again.Errors, []string{"e"}) {
		t.Errorf("a caller changed the cached spec: %+v, %v", again, err)
	}
}

// TestOnlySpecsAndNamesAreCached: with caching off every read reaches the
// inner port; reads the layer does not cache always do.
func TestOnlySpecsAndNamesAreCached(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name                       string
		ttl                        time.Duration
		wantSpecs, wantNames, runs int32
	}{
		{"on", 0, 1, 1, 2},
		{"off", -1, 2, 2, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			l, inner := newLayer(t, tt.ttl)
			ctx := context.Background()
			for range 2 {
				_, _ = l.GetDAGSpec(ctx, "x")
				names, _ := l.DAGNames(ctx)
				names[0] = "changed by the caller"
				_, _ = l.GetRun(ctx, model.RunAddress{})
			}
			if s, n, r := inner.specs.Load(), inner.names.Load(), inner.runs.Load(); s != tt.wantSpecs || n != tt.wantNames || r != tt.runs {
				t.Errorf("inner reads: specs %d, names %d, runs %d; want %d, %d, %d", s, n, r, tt.wantSpecs, tt.wantNames, tt.runs)
			}
			if names, _ := l.DAGNames(ctx); names[0] != "a" {
				t.Errorf("a caller changed the cached names: %q", names)
			}
		})
	}
}
