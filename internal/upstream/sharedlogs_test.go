// SPDX-License-Identifier: Apache-2.0

package upstream

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
	"github.com/dagu-mcp-gateway/gateway/internal/model"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient"
	"github.com/dagu-mcp-gateway/gateway/internal/sharedstate/redistest"
)

// logGate holds the first call of each log URL until a second call of the
// same URL arrives or the test releases it, so replicas that do not
// coalesce are caught reading the same log twice.
type logGate struct {
	mu      sync.Mutex
	calls   map[string]int
	held    map[string]chan struct{}
	release chan struct{}
}

func newLogGate() *logGate {
	return &logGate{calls: map[string]int{}, held: map[string]chan struct{}{}, release: make(chan struct{})}
}

func (g *logGate) wrap(next func() http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/log") {
			key := r.URL.Path + "?" + r.URL.RawQuery
			g.mu.Lock()
			g.calls[key]++
			n := g.calls[key]
			ch, ok := g.held[key]
			if !ok {
				ch = make(chan struct{})
				g.held[key] = ch
			}
			g.mu.Unlock()
			switch n {
			case 1:
				select {
				case <-ch:
				case <-g.release:
				}
			case 2:
				close(ch)
			}
		}
		next().ServeHTTP(w, r)
	})
}

// repeated returns the log URLs called more than once.
func (g *logGate) repeated() map[string]int {
	g.mu.Lock()
	defer g.mu.Unlock()
	out := map[string]int{}
	for k, n := range g.calls {
		if n > 1 {
			out[k] = n
		}
	}
	return out
}

func (g *logGate) total() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.calls)
}

// gatedReplica is replica behind gate.
func gatedReplica(t *testing.T, env *adapterEnv, gate *logGate, srv *redistest.Server) *Adapter {
	t.Helper()
	front := httptest.NewServer(gate.wrap(func() http.Handler { return env.fake.Load() }))
	t.Cleanup(front.Close)
	client, err := restclient.New(restclient.Config{BaseURL: front.URL, Key: env.key, Timeout: 30 * time.Second, RetryBaseWait: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	opts := AdapterOptions{Client: client, Now: func() time.Time { return fakeNow }}
	sharedCaches(openShared(t, srv))(&opts)
	a, err := NewAdapter(opts)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.waitBackground)
	return a
}

func TestSharedLevelCoalescesFinishedRunLogsAcrossReplicas(t *testing.T) {
	srv := redistest.Start(t)
	sub := model.RunAddress{Name: "parent_job", DAGRunID: parentRun, SubRunID: childRun}
	body := stepOf(runOf("foreach_job", foreachRun), "each")
	body.Item, body.BodyStepName = "1", "work"
	cases := []struct {
		name    string
		fake    fakedagu.Options
		prepare func(ctx context.Context, a *Adapter) error
		read    func(ctx context.Context, a *Adapter) (any, error)
	}{
		{name: "run logs", read: func(ctx context.Context, a *Adapter) (any, error) {
			return a.GetRunLogs(ctx, runOf("failing_job", failingRun), model.LogQuery{})
		}},
		{name: "run logs window", read: func(ctx context.Context, a *Adapter) (any, error) {
			return a.GetRunLogs(ctx, runOf("failing_job", failingRun), model.LogQuery{Head: 3})
		}},
		{name: "step log", read: func(ctx context.Context, a *Adapter) (any, error) {
			return a.GetStepLog(ctx, stepOf(runOf("failing_job", failingRun), "explode"), model.LogQuery{})
		}},
		{name: "sub-run step log", prepare: func(ctx context.Context, a *Adapter) error {
			_, err := a.GetRun(ctx, runOf("parent_job", parentRun))
			if err == nil {
				_, err = a.GetRun(ctx, sub)
			}
			return err
		}, read: func(ctx context.Context, a *Adapter) (any, error) {
			return a.GetStepLog(ctx, stepOf(sub, "child_start"), model.LogQuery{Stream: "stdout"})
		}},
		{name: "body step log", fake: fakedagu.Options{Foreach: fakedagu.ForeachRoutes}, read: func(ctx context.Context, a *Adapter) (any, error) {
			return a.GetStepLog(ctx, body, model.LogQuery{})
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv.Client().FlushAll(context.Background())
			env := newAdapterEnv(t, envOptions{fake: c.fake, detect: true})
			gate := newLogGate()
			replicas := []*Adapter{gatedReplica(t, env, gate, srv), gatedReplica(t, env, gate, srv)}
			ctx := context.Background()
			if c.prepare != nil {
				for _, a := range replicas {
					if err := c.prepare(ctx, a); err != nil {
						t.Fatal(err)
					}
				}
			}
			answers := make([]any, len(replicas))
			errs := make([]error, len(replicas))
			var wg sync.WaitGroup
			for i, a := range replicas {
				wg.Go(func() { answers[i], errs[i] = c.read(ctx, a) })
			}
			// A replica that does not coalesce releases the other's held
			// call itself; one that does is released here.
			time.Sleep(300 * time.Millisecond)
			close(gate.release)
			wg.Wait()
			for i, err := range errs {
				if err != nil {
					t.Fatalf("replica %d: %v", i, err)
				}
			}
			if gate.total() == 0 {
				t.Fatal("no log was read")
			}
			if rep := gate.repeated(); len(rep) != 0 {
				t.Errorf("Dagu log calls made more than once by replicas reading at once: %v", rep)
			}
			if !sameJSON(answers[0], answers[1]) {
				t.Errorf("the replicas answered differently:\n%#v\n%#v", answers[0], answers[1])
			}
		})
	}
}
