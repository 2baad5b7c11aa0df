// SPDX-License-Identifier: Apache-2.0

package upstream

import (
	"context"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
)

// countingDAGs answers specs and names and counts the reads that reach it.
type countingDAGs struct {
	specs, names atomic.Int32
}

func (p *countingDAGs) spec(name string) func(context.Context) (*model.DAGSpec, error) {
	return func(context.Context) (*model.DAGSpec, error) {
		p.specs.Add(1)
		if name == "missing" {
			return nil, &model.Failure{Kind: model.FailureNotFound, Field: model.FieldName}
		}
		return &model.DAGSpec{Name: name, Spec: "steps: []", Errors: []string{"e"}}, nil
	}
}

func (p *countingDAGs) dagNames(context.Context) ([]string, error) {
	p.names.Add(1)
	return []string{"a", "b"}, nil
}

// newDAGCaches builds the DAG caches of one server over stores of their
// own (ttl 0: off).
func newDAGCaches(t *testing.T, ttl time.Duration) *dagCaches {
	t.Helper()
	s, err := NewStores(StoresOptions{DAGCacheTTL: ttl})
	if err != nil {
		t.Fatal(err)
	}
	d := &dagCaches{specs: s.specs, names: s.names, ttl: ttl, lifetime: context.Background}
	t.Cleanup(d.waitRefreshes)
	return d
}

// TestSpecsAreCachedPerCredential: a spec is read once per credential and
// name; a failure is never kept; each caller gets its own copy.
func TestSpecsAreCachedPerCredential(t *testing.T) {
	t.Parallel()
	d, inner := newDAGCaches(t, DefaultDAGCacheTTL), &countingDAGs{}
	ctx := context.Background()
	steps := []struct {
		credential, name string
		wantReads        int32
	}{
		{"a", "x", 1}, {"a", "x", 1}, {"b", "x", 2}, {"b", "x", 2}, {"a", "y", 3},
		{"a", "missing", 4}, {"a", "missing", 5},
	}
	for i, s := range steps {
		spec, err := d.spec(ctx, specKey{credential: s.credential, name: s.name}, inner.spec(s.name))
		if s.name != "missing" && (err != nil || spec.Name != s.name) {
			t.Fatalf("step %d: %+v, %v", i, spec, err)
		}
		if s.name != "missing" {
			spec.Errors = append(spec.Errors, "changed by the caller")
		}
		if got := inner.specs.Load(); got != s.wantReads {
			t.Errorf("step %d: %d reads reached Dagu, want %d", i, got, s.wantReads)
		}
	}
	again, err := d.spec(ctx, specKey{credential: "a", name: "x"}, inner.spec("x"))
	if err != nil || !slices.Equal(again.Errors, []string{"e"}) {
		t.Errorf("a caller changed the cached spec: %+v, %v", again, err)
	}
}

// TestDAGCachesCanBeOff: with caching off every read reaches Dagu; on, a
// spec and the names are read once, and a caller's copy of the names is
// its own.
func TestDAGCachesCanBeOff(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name                 string
		ttl                  time.Duration
		wantSpecs, wantNames int32
	}{
		{"on", DefaultDAGCacheTTL, 1, 1},
		{"off", 0, 2, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			d, inner := newDAGCaches(t, tt.ttl), &countingDAGs{}
			ctx := context.Background()
			for range 2 {
				_, _ = d.spec(ctx, specKey{name: "x"}, inner.spec("x"))
				names, _ := d.namesOf(ctx, namesKey{}, inner.dagNames)
				names[0] = "changed by the caller"
			}
			if s, n := inner.specs.Load(), inner.names.Load(); s != tt.wantSpecs || n != tt.wantNames {
				t.Errorf("reads: specs %d, names %d; want %d, %d", s, n, tt.wantSpecs, tt.wantNames)
			}
			if names, _ := d.namesOf(ctx, namesKey{}, inner.dagNames); names[0] != "a" {
				t.Errorf("a caller changed the cached names: %q", names)
			}
		})
	}
}
