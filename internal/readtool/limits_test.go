// SPDX-License-Identifier: Apache-2.0

package readtool

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

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

// refusingLimiter admits the first n reads, then refuses with wait, and
// records the callers it was asked about.
type refusingLimiter struct {
	n       int
	wait    time.Duration
	callers []string
}

func (l *refusingLimiter) Admit(ctx context.Context) (time.Duration, bool) {
	info, _ := reqctx.From(ctx)
	l.callers = append(l.callers, info.Caller)
	if len(l.callers) > l.n {
		return l.wait, false
	}
	return 0, true
}

// TestTheLimiterIsAskedFirst: every tool call and resource read asks the
// limiter about the caller the context carries before any work; a refusal
// answers resource_unavailable with retryAfterMs and reaches nothing.
func TestTheLimiterIsAskedFirst(t *testing.T) {
	t.Parallel()
	up := &stubUpstream{}
	limiter := &refusingLimiter{n: 1, wait: 1500 * time.Millisecond}
	tool, err := New(Options{Upstream: up, References: stubRefs{}, Limiter: limiter})
	if err != nil {
		t.Fatal(err)
	}
	ctx := reqctx.With(context.Background(), reqctx.Info{Caller: "dagu:user-7", Trust: reqctx.TrustVerified})
	if res := tool.Call(ctx, json.RawMessage(`{"target":"dags"}`)); res.IsError {
		t.Fatalf("first read: %+v", res.StructuredContent)
	}
	e := errorOf(t, tool.Call(ctx, json.RawMessage(`{"target":"dags"}`)))
	if e.Code != CodeResourceUnavailable || e.Details["retryAfterMs"] != int64(1500) {
		t.Fatalf("second read: %+v", e)
	}
	if _, err := tool.ReadResource(ctx, &mcp.ReadResourceRequest{Params: &mcp.ReadResourceParams{URI: "dagu://dags"}}); err == nil {
		t.Fatal("a resource read past the limit was answered")
	}
	if len(up.calls) != 1 || len(limiter.callers) != 3 || limiter.callers[2] != "dagu:user-7" {
		t.Fatalf("upstream calls %d, limiter asked for %q", len(up.calls), limiter.callers)
	}
}

// oneAtATime admits one read in flight per caller, as trust.Concurrency
// with a limit of 1 does.
type oneAtATime struct {
	mu       sync.Mutex
	inFlight map[string]bool
}

func (o *oneAtATime) Acquire(ctx context.Context) (func(), bool) {
	info, _ := reqctx.From(ctx)
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.inFlight[info.Caller] {
		return nil, false
	}
	o.inFlight[info.Caller] = true
	return func() { o.mu.Lock(); delete(o.inFlight, info.Caller); o.mu.Unlock() }, true
}

// blockingStepLog holds every step-log read until release is closed.
type blockingStepLog struct {
	stubUpstream
	started chan struct{}
	release chan struct{}
}

func (b *blockingStepLog) GetStepLog(context.Context, model.StepAddress, model.LogQuery) (*model.StepLog, error) {
	b.started <- struct{}{}
	<-b.release
	return &model.StepLog{Stream: "stdout"}, nil
}

// TestCallerConcurrencyRefusesTheReadOverTheLimit: while a caller's read
// is in flight, its next one answers resource_unavailable with
// retryAfterMs before anything is read, another caller's read goes on, and
// the place is given back when the read ends (tool calls and resource
// reads alike).
func TestCallerConcurrencyRefusesTheReadOverTheLimit(t *testing.T) {
	t.Parallel()
	up := &blockingStepLog{started: make(chan struct{}, 4), release: make(chan struct{})}
	tool, err := New(Options{Upstream: up, References: stubRefs{}, Concurrency: &oneAtATime{inFlight: map[string]bool{}}})
	if err != nil {
		t.Fatal(err)
	}
	as := func(caller string) context.Context {
		return reqctx.With(context.Background(), reqctx.Info{Caller: caller, Trust: reqctx.TrustVerified})
	}
	const stepLog = `{"target":"step_log","name":"a","dagRunId":"b","stepName":"c"}`
	done := make(chan *mcp.CallToolResult)
	go func() { done <- tool.Call(as("alice"), json.RawMessage(stepLog)) }()
	<-up.started
	e := errorOf(t, tool.Call(as("alice"), json.RawMessage(stepLog)))
	if e.Code != CodeResourceUnavailable || e.Details["retryAfterMs"] == nil {
		t.Errorf("alice's second read in flight: %+v, want resource_unavailable with retryAfterMs", e)
	}
	go func() { done <- tool.Call(as("bob"), json.RawMessage(stepLog)) }()
	<-up.started
	close(up.release)
	for range 2 {
		if res := <-done; res.IsError {
			t.Errorf("a read within the limit failed: %+v", res.StructuredContent)
		}
	}
	if res := tool.Call(as("alice"), json.RawMessage(`{"target":"dag","name":"a"}`)); res.IsError {
		t.Errorf("alice's read after her first ended failed: %+v", res.StructuredContent)
	}
}
