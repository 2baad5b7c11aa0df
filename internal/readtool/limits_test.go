// SPDX-License-Identifier: Apache-2.0

package readtool

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
	"github.com/dagu-mcp-gateway/gateway/internal/reqctx"
)

// TestHostileInputIsRefusedBeforeAnyWork: oversized values and dot
// segments are refused on the field at fault, nothing reaches the
// upstream, and the answer stays small.
func TestHostileInputIsRefusedBeforeAnyWork(t *testing.T) {
	t.Parallel()
	huge := func(n int) string { return strings.Repeat("a", n) }
	tests := []struct {
		name, args, field string
		code              Code
	}{
		{"1 MiB DAG name", `{"target":"dag","name":"` + huge(1<<20) + `"}`, fName, CodeInvalidToolInput},
		{"3 MiB of arguments", `{"target":"dag","name":"` + huge(3<<20) + `"}`, "", CodeInvalidToolInput},
		{"long DAG name", `{"target":"dag","name":"` + huge(maxIdentifier+1) + `"}`, fName, CodeInvalidToolInput},
		{"100 KB run ID", `{"target":"run","name":"a","dagRunId":"` + huge(100<<10) + `"}`, fDAGRunID, CodeInvalidToolInput},
		{"long run ID", `{"target":"run","name":"a","dagRunId":"` + huge(maxRunID+1) + `"}`, fDAGRunID, CodeInvalidToolInput},
		{"dot-dot name", `{"target":"run","name":"..","dagRunId":"latest"}`, fName, CodeInvalidToolInput},
		{"dot step", `{"target":"step_log","name":"a","dagRunId":"b","stepName":"."}`, fStepName, CodeInvalidToolInput},
		{"long search", `{"target":"dag_search","search":"` + huge(maxSearch+1) + `"}`, fSearch, CodeInvalidToolInput},
		{"long query", `{"target":"runs","query":"name=` + huge(maxQuery) + `"}`, fQuery, CodeInvalidToolInput},
		{"long URI segment", `{"uri":"dagu://runs/a/` + huge(maxRunID+1) + `"}`, fURI, CodeInvalidResourceURI},
		{"dot-dot URI segment", `{"uri":"dagu://runs/%2E%2E/latest"}`, fURI, CodeInvalidResourceURI},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tool, up := newStubTool(t)
			res := callJSON(t, tool, tt.args)
			e := errorOf(t, res)
			if e.Code != tt.code || (tt.field != "" && e.Field != tt.field) {
				t.Fatalf("error %+v, want %s on %q", e, tt.code, tt.field)
			}
			if up.last() != nil {
				t.Fatalf("the upstream was asked: %v", up.last())
			}
			if raw, _ := json.Marshal(res); len(raw) > 4<<10 {
				t.Fatalf("answer of %d bytes", len(raw))
			}
		})
	}
}

// slowUpstream blocks every read until the context ends, as a Dagu that
// never answers would.
type slowUpstream struct {
	stubUpstream
	sawDeadline bool
}

func (s *slowUpstream) GetStepLog(ctx context.Context, _ model.StepAddress, _ model.LogQuery) (*model.StepLog, error) {
	_, s.sawDeadline = ctx.Deadline()
	<-ctx.Done()
	return nil, ctx.Err()
}

// TestCallTimeoutBoundsTheWholeRead: every upstream call of one read shares
// the call's deadline, and running out answers resource_unavailable.
func TestCallTimeoutBoundsTheWholeRead(t *testing.T) {
	t.Parallel()
	up := &slowUpstream{}
	tool, err := New(Options{Upstream: up, References: stubRefs{}, CallTimeout: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	res := tool.Call(context.Background(), json.RawMessage(`{"target":"step_log","name":"a","dagRunId":"b","stepName":"c","item":"0","bodyStepName":"d"}`))
	if e := errorOf(t, res); e.Code != CodeResourceUnavailable || !up.sawDeadline {
		t.Fatalf("error %+v, deadline seen %v", e, up.sawDeadline)
	}
}

// listDAGsAs lists DAGs as caller and returns the tool error, or nil
// when the call succeeded.
func listDAGsAs(tool *Tool, caller string) *Error {
	ctx := reqctx.With(context.Background(), reqctx.Info{Caller: caller})
	res := tool.Call(ctx, json.RawMessage(`{"target":"dags"}`))
	if !res.IsError {
		return nil
	}
	return res.StructuredContent.(*Error)
}

// TestPerCallerRateLimit: each caller has its own bucket; over it a read is
// refused at once with retryAfterMs, without reaching the upstream. Not
// parallel: the bucket refills with time, so the test runs alone.
func TestPerCallerRateLimit(t *testing.T) {
	up := &stubUpstream{}
	tool, err := New(Options{Upstream: up, References: stubRefs{}, RateLimit: 1, RateBurst: 2})
	if err != nil {
		t.Fatal(err)
	}
	call := func(caller string) *Error { return listDAGsAs(tool, caller) }
	for i := range 2 {
		if e := call("alice"); e != nil {
			t.Fatalf("read %d within the burst refused: %+v", i, e)
		}
	}
	e := call("alice")
	if e == nil || e.Code != CodeResourceUnavailable || e.Details["retryAfterMs"] == nil {
		t.Fatalf("third read: %+v", e)
	}
	if e := call("bob"); e != nil {
		t.Fatalf("another caller was limited: %+v", e)
	}
	if n := len(up.calls); n != 3 {
		t.Fatalf("upstream saw %d reads, want 3", n)
	}
}

// fakeSharedLimit is an in-memory SharedRateLimiter whose answers the test
// sets: the shared state's own behaviour is tested against a real Redis in
// internal/sharedstate.
type fakeSharedLimit struct {
	allowed bool
	wait    time.Duration
	err     error
	callers []string
}

func (f *fakeSharedLimit) Allow(_ context.Context, caller string) (bool, time.Duration, error) {
	f.callers = append(f.callers, caller)
	return f.allowed, f.wait, f.err
}

// TestSharedRateLimitDecidesFirst: the cluster-wide limit decides while it
// can; when it cannot, the replica's own bucket does. Not parallel: the
// replica's bucket refills with time, so the test runs alone.
func TestSharedRateLimitDecidesFirst(t *testing.T) {
	cases := []struct {
		name     string
		shared   fakeSharedLimit
		admitted int // of 4 reads with a local burst of 2
		waitMs   int64
	}{
		{"shared admits beyond the local burst", fakeSharedLimit{allowed: true}, 4, 0},
		{"shared refuses within the local burst", fakeSharedLimit{wait: 1500 * time.Millisecond}, 0, 1500},
		{"shared unavailable: the local bucket decides", fakeSharedLimit{err: errors.New("shared state unavailable")}, 2, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			shared := c.shared
			tool, err := New(Options{Upstream: &stubUpstream{}, References: stubRefs{}, RateLimit: 1, RateBurst: 2, SharedRateLimit: &shared})
			if err != nil {
				t.Fatal(err)
			}
			ctx := reqctx.With(context.Background(), reqctx.Info{Caller: "alice"})
			admitted := 0
			for range 4 {
				res := tool.Call(ctx, json.RawMessage(`{"target":"dags"}`))
				if !res.IsError {
					admitted++
					continue
				}
				e := res.StructuredContent.(*Error)
				if e.Code != CodeResourceUnavailable {
					t.Fatalf("refusal %+v", e)
				}
				if c.waitMs > 0 && e.Details["retryAfterMs"] != c.waitMs {
					t.Fatalf("retryAfterMs %v, want the shared limit's %d", e.Details["retryAfterMs"], c.waitMs)
				}
			}
			if admitted != c.admitted {
				t.Fatalf("admitted %d of 4, want %d", admitted, c.admitted)
			}
			if len(shared.callers) != 4 || shared.callers[0] != "alice" {
				t.Fatalf("the shared limit saw callers %q", shared.callers)
			}
		})
	}
}

// TestUnverifiedIPv6CallersShareTheirNetworksBucket: unverified callers are
// named by address, and every address of one IPv6 /64 shares one bucket,
// so a host given a /64 cannot take a fresh bucket per address (nor push
// its verified key's bucket out of the cache with them); another /64, an
// IPv4 address and a verified caller keep their own. The rate is so low
// that no bucket refills while the test runs.
func TestUnverifiedIPv6CallersShareTheirNetworksBucket(t *testing.T) {
	t.Parallel()
	tool, err := New(Options{Upstream: &stubUpstream{}, References: stubRefs{}, RateLimit: 0.001, RateBurst: 1})
	if err != nil {
		t.Fatal(err)
	}
	call := func(caller string) *Error { return listDAGsAs(tool, caller) }
	if e := call("unverified:2001:db8:1:2::1"); e != nil {
		t.Fatalf("first read refused: %+v", e)
	}
	if e := call("unverified:2001:db8:1:2::2"); e == nil || e.Code != CodeResourceUnavailable {
		t.Fatalf("another address of the same /64 got a fresh bucket: %+v", e)
	}
	for _, other := range []string{"unverified:2001:db8:1:3::1", "unverified:192.0.2.1", "key:0123abcd"} {
		if e := call(other); e != nil {
			t.Fatalf("%s was limited: %+v", other, e)
		}
	}
}
