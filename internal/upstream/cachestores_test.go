// SPDX-License-Identifier: Apache-2.0

package upstream

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient/gen"
)

// daguOf answers every spec and run with its own server's name in it.
type daguOf struct {
	specs, runs atomic.Int32
	server      string
}

func noCredential(context.Context) string { return "" }

func (d *daguOf) spec(name string) func(context.Context) (*model.DAGSpec, error) {
	return func(context.Context) (*model.DAGSpec, error) {
		d.specs.Add(1)
		return &model.DAGSpec{Name: name, Spec: "# " + d.server}, nil
	}
}

func (d *daguOf) details(_ context.Context, t runTarget) (*gen.DAGRunDetails, error) {
	d.runs.Add(1)
	return &gen.DAGRunDetails{Name: t.Ref.Name, DagRunId: t.Ref.RunID, Status: 4, Log: d.server + strings.Repeat("x", 1<<10)}, nil
}

func (d *daguOf) latest(context.Context, string) (*gen.DAGRunDetails, error) { return nil, nil }

func (d *daguOf) stepLog(_ context.Context, t runTarget, _ restclient.StepRef, _ []gen.LogStream, _ restclient.LogWindow) (runTarget, []streamRead) {
	return t, nil
}

func newStores(t *testing.T, runBytes int64) *Stores {
	t.Helper()
	s, err := NewStores(StoresOptions{DAGCacheTTL: DefaultDAGCacheTTL, RunCacheBytes: runBytes, RunCacheTTL: 1 << 40, RoleTTL: 1 << 40})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// serverCaches are one server's DAG and run caches in its scope of the
// stores, as NewAdapter builds them.
func serverCaches(s *Stores, scope string, d *daguOf) (*dagCaches, *runCache) {
	dags := &dagCaches{specs: s.specs, names: s.names, ttl: DefaultDAGCacheTTL, scope: scope, lifetime: context.Background}
	runs := &runCache{next: d, credential: noCredential, store: runStore{c: s.runs, scope: scope}}
	return dags, runs
}

// TestStoresKeepServersApart: two Dagu servers with a DAG of one name share
// the process's stores and each is answered its own spec and run.
func TestStoresKeepServersApart(t *testing.T) {
	t.Parallel()
	stores := newStores(t, 1<<20)
	ctx := context.Background()
	for round := range 2 {
		for _, server := range []string{"prod", "staging"} {
			d := &daguOf{server: server}
			dags, runs := serverCaches(stores, server, d)
			spec, err := dags.spec(ctx, specKey{name: "etl"}, d.spec("etl"))
			if err != nil || spec.Spec != "# "+server {
				t.Errorf("round %d, %s: spec %+v, %v", round, server, spec, err)
			}
			run, err := runs.details(ctx, runTarget{Ref: restclient.RunRef{Name: "etl", RunID: "r1"}})
			if err != nil || !strings.HasPrefix(run.Log, server) {
				t.Errorf("round %d, %s: run %.20q, %v", round, server, run.Log, err)
			}
			if wantReads := int32(1 - round); d.specs.Load() != wantReads || d.runs.Load() != wantReads {
				t.Errorf("round %d, %s: %d spec and %d run reads reached Dagu, want %d", round, server, d.specs.Load(), d.runs.Load(), wantReads)
			}
		}
	}
}

// TestStoresBoundIsTheProcesss: however many servers share the stores,
// and however many join later (a reload that adds instances), the run
// cache never holds more than its one budget; a server dropped frees its
// room.
func TestStoresBoundIsTheProcesss(t *testing.T) {
	t.Parallel()
	const budget = 64 << 10
	stores := newStores(t, budget)
	ctx := context.Background()
	var runs *runCache
	for _, servers := range []int{2, 20} { // the file, then the file after a reload
		for i := range servers {
			d := &daguOf{server: fmt.Sprintf("dagu-%d", i)}
			_, runs = serverCaches(stores, d.server, d)
			for r := range 20 {
				if _, err := runs.details(ctx, runTarget{Ref: restclient.RunRef{Name: "etl", RunID: fmt.Sprint(r)}}); err != nil {
					t.Fatal(err)
				}
			}
			if got := runs.stats().Bytes; got > budget || got == 0 {
				t.Fatalf("%d servers, after server %d: the run cache holds %d bytes, budget %d", servers, i, got, budget)
			}
		}
	}
	before := runs.stats().Entries
	stores.Drop("dagu-19")
	if after := runs.stats().Entries; after >= before {
		t.Errorf("dropping a server kept its entries: %d before, %d after", before, after)
	}
}
