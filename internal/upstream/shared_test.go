// SPDX-License-Identifier: Apache-2.0

package upstream

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
	"github.com/dagu-mcp-gateway/gateway/internal/model"
	"github.com/dagu-mcp-gateway/gateway/internal/readtool"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient"
	"github.com/dagu-mcp-gateway/gateway/internal/sharedstate"
	"github.com/dagu-mcp-gateway/gateway/internal/sharedstate/redistest"
)

// These tests play gateway replicas sharing one real redis-server in front
// of one fake Dagu.

// sharedRead is one read through the port, returning its answer.
type sharedReadCase struct {
	name string
	fake fakedagu.Options
	read func(ctx context.Context, a readtool.Upstream) (any, error)
}

func sharedReadCases() []sharedReadCase {
	sub := model.RunAddress{Name: "parent_job", DAGRunID: parentRun, SubRunID: childRun}
	body := stepOf(runOf("foreach_job", foreachRun), "each")
	body.Item, body.BodyStepName = "1", "work"
	return []sharedReadCase{
		{name: "run", read: func(ctx context.Context, a readtool.Upstream) (any, error) {
			return a.GetRun(ctx, runOf("failing_job", failingRun))
		}},
		{name: "run logs", read: func(ctx context.Context, a readtool.Upstream) (any, error) {
			return a.GetRunLogs(ctx, runOf("failing_job", failingRun), model.LogQuery{})
		}},
		{name: "step log", read: func(ctx context.Context, a readtool.Upstream) (any, error) {
			return a.GetStepLog(ctx, stepOf(runOf("failing_job", failingRun), "explode"), model.LogQuery{})
		}},
		{name: "sub-run step log", read: func(ctx context.Context, a readtool.Upstream) (any, error) {
			if _, err := a.GetRun(ctx, runOf("parent_job", parentRun)); err != nil {
				return nil, err
			}
			return a.GetStepLog(ctx, stepOf(sub, "child_start"), model.LogQuery{Stream: "stdout"})
		}},
		{name: "body step log", fake: fakedagu.Options{Foreach: fakedagu.ForeachRoutes}, read: func(ctx context.Context, a readtool.Upstream) (any, error) {
			return a.GetStepLog(ctx, body, model.LogQuery{})
		}},
		{name: "spec", read: func(ctx context.Context, a readtool.Upstream) (any, error) {
			return a.GetDAGSpec(ctx, "failing_job")
		}},
		{name: "DAG names", read: func(ctx context.Context, a readtool.Upstream) (any, error) {
			return a.DAGNames(ctx)
		}},
		{name: "DAG list", read: func(ctx context.Context, a readtool.Upstream) (any, error) {
			return a.ListDAGs(ctx, model.DAGListQuery{})
		}},
		{name: "DAG", read: func(ctx context.Context, a readtool.Upstream) (any, error) {
			return a.GetDAG(ctx, "failing_job")
		}},
		{name: "run list", read: func(ctx context.Context, a readtool.Upstream) (any, error) {
			return a.ListRuns(ctx, model.RunListQuery{Name: "failing_job"})
		}},
	}
}

// sharedCaches turns every cache on, with lifetimes no slow machine can
// outlast during a test.
func sharedCaches(store *sharedstate.Store) func(*AdapterOptions) {
	return func(o *AdapterOptions) {
		withCaches(o)
		o.DAGCacheTTL = time.Hour
		o.ListCacheTTL = time.Hour
		o.Shared = store
	}
}

// sharedEnv is an adapter env whose caches share store.
func sharedEnv(t *testing.T, fake fakedagu.Options, store *sharedstate.Store) *adapterEnv {
	t.Helper()
	return newAdapterEnv(t, envOptions{fake: fake, adapter: sharedCaches(store), detect: true})
}

// openShared opens one replica's connection to srv.
func openShared(t *testing.T, srv *redistest.Server) *sharedstate.Store {
	t.Helper()
	s, err := sharedstate.Open(sharedstate.Options{URL: srv.URL(), Scope: "fake-dagu", Timeout: time.Second,
		MaxPause: 50 * time.Millisecond, Registerer: prometheus.NewRegistry()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// replica builds another adapter in front of env's fake Dagu, with its own
// client, local caches and shared store, sending key.
func replica(t *testing.T, env *adapterEnv, key restclient.KeySource, store *sharedstate.Store) *Adapter {
	t.Helper()
	front := httptest.NewServer(env.fake.Load())
	t.Cleanup(front.Close)
	client, err := restclient.New(restclient.Config{BaseURL: front.URL, Key: key, Timeout: 10 * time.Second, RetryBaseWait: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	opts := AdapterOptions{Client: client, Now: func() time.Time { return fakeNow }}
	sharedCaches(store)(&opts)
	a, err := NewAdapter(opts)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = a.Refresh(context.Background()) // a refused key fails here, and later
	t.Cleanup(a.waitBackground)
	return a
}

func TestSharedLevelServesAnotherReplicaWithoutCalls(t *testing.T) {
	srv := redistest.Start(t)
	for _, c := range sharedReadCases() {
		t.Run(c.name, func(t *testing.T) {
			srv.Client().FlushAll(context.Background())
			env := sharedEnv(t, c.fake, openShared(t, srv))
			second := replica(t, env, env.key, openShared(t, srv))
			env.fake.Load().Reset()
			ctx := context.Background()
			var want, got any
			var err error
			first := env.calls(func() { want, err = c.read(ctx, env.adapter) })
			if err != nil || len(first) == 0 {
				t.Fatalf("first replica: %v after calls %q", err, first)
			}
			calls := env.calls(func() { got, err = c.read(ctx, second) })
			if err != nil {
				t.Fatalf("second replica: %v", err)
			}
			if len(calls) != 0 {
				t.Errorf("the second replica called Dagu %q; the first replica's reads were shared", calls)
			}
			if !sameJSON(got, want) {
				t.Errorf("the second replica answered\n%#v\nthe first\n%#v", got, want)
			}
		})
	}
}

func TestSharedLevelIsolatesCredentials(t *testing.T) {
	srv := redistest.Start(t)
	env := sharedEnv(t, fakedagu.Options{}, openShared(t, srv))
	stranger := replica(t, env, restclient.StaticKey("another-key-the-fake-refuses"), openShared(t, srv))
	ctx := context.Background()
	for _, c := range sharedReadCases() {
		if c.fake.Foreach != fakedagu.ForeachAggregate {
			continue
		}
		if _, err := c.read(ctx, env.adapter); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		var err error
		calls := env.calls(func() { _, err = c.read(ctx, stranger) })
		if err == nil || len(calls) == 0 {
			t.Errorf("%s: another credential was answered (%v) after calls %q; it must ask Dagu, which refuses it", c.name, err, calls)
		}
	}
}

func TestSharedLevelDownFallsBackAndResumes(t *testing.T) {
	srv := redistest.Start(t)
	env := sharedEnv(t, fakedagu.Options{}, openShared(t, srv))
	ctx := context.Background()
	cases := sharedReadCases()
	answers := map[string]any{}
	for _, c := range cases {
		if c.fake.Foreach != fakedagu.ForeachAggregate {
			continue
		}
		v, err := c.read(ctx, env.adapter)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		answers[c.name] = v
	}
	srv.Stop()
	down := replica(t, env, env.key, openShared(t, srv))
	for _, c := range cases {
		if want, ok := answers[c.name]; ok {
			got, err := c.read(ctx, down)
			if err != nil || !sameJSON(got, want) {
				t.Fatalf("%s with Redis down: %v; every read must still succeed with the same answer", c.name, err)
			}
		}
	}
	srv.Restart()
	// The restarted Redis is empty: the first replica's next reads come
	// from its local caches and share nothing, so a fresh replica fills it
	// and another fresh one must be served from it.
	filler := replica(t, env, env.key, openShared(t, srv))
	deadline := time.Now().Add(30 * time.Second)
	for {
		_, err := cases[0].read(ctx, filler)
		if err != nil {
			t.Fatal(err)
		}
		if n, _ := srv.Client().DBSize(ctx).Result(); n > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the restarted Redis never received a shared entry")
		}
		filler = replica(t, env, env.key, openShared(t, srv))
		time.Sleep(50 * time.Millisecond)
	}
	fresh := replica(t, env, env.key, openShared(t, srv))
	if calls := env.calls(func() { _, _ = cases[0].read(ctx, fresh) }); len(calls) != 0 {
		t.Fatalf("after the restart a fresh replica still called %q", calls)
	}
}

// sameJSON reports whether two answers encode alike: what the agent reads.
func sameJSON(a, b any) bool {
	ja, erra := json.Marshal(a)
	jb, errb := json.Marshal(b)
	return erra == nil && errb == nil && bytes.Equal(ja, jb)
}
