// SPDX-License-Identifier: Apache-2.0

package restclient

import (
	"context"
	"log/slog"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/restclient/gen"
	"github.com/dagu-mcp-gateway/gateway/internal/testkit"
)

// TestOutageIsLoggedAtWarn (issue 21, row "Dagu outage"): with the log at
// warn level, an outage (5xx answers, then no answer at all) is logged when
// it starts, again at most once a minute while it lasts, and when it ends,
// with the failing route and the count of failed calls; Outage reports it
// while it lasts. A 4xx answer is Dagu answering, not an outage.
func TestOutageIsLoggedAtWarn(t *testing.T) {
	t.Parallel()
	// mode 0: Dagu answers; 1: 503; 2: the connection drops unanswered.
	var mode atomic.Int32
	srv, _ := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		switch {
		case mode.Load() == 1:
			http.Error(w, "upstream gone", http.StatusServiceUnavailable)
		case mode.Load() == 2:
			conn, _, err := w.(http.Hijacker).Hijack()
			if err == nil {
				_ = conn.Close()
			}
		case strings.HasSuffix(r.URL.Path, "/dags/missing"):
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusNotFound)
			_, _ = w.Write([]byte(`{"code":"not_found","message":"no such DAG"}`))
		default:
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"dags":[],"errors":[],"pagination":{"totalRecords":0,"currentPage":1,"totalPages":1,"nextPage":1,"prevPage":1}}`))
		}
	})
	var logs testkit.LogBuffer
	c := newTestClient(t, srv.URL, func(cfg *Config) {
		cfg.Retries = -1
		cfg.Logger = slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelWarn}))
	})
	clock := testkit.NewClock(time.Date(2026, 12, 2, 1, 0, 0, 0, time.UTC))
	c.doer.outage.now = clock.Now
	ctx := context.Background()
	list := func() error { _, err := c.ListDAGs(ctx, gen.ListDAGsParams{}); return err }

	if err := list(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.GetDAG(ctx, "missing"); err == nil {
		t.Fatal("the missing DAG was found")
	}
	if _, ok := c.Outage(); ok || len(logs.JSONLines(t)) != 0 {
		t.Fatalf("an outage without a failure: %v", logs.JSONLines(t))
	}

	mode.Store(1)
	for range 3 {
		if list() == nil {
			t.Fatal("a 503 succeeded")
		}
		clock.Advance(time.Second)
	}
	outage, ok := c.Outage()
	if !ok || outage.Failures != 3 || outage.Route != RouteDAGs || outage.Outcome != "5xx" {
		t.Fatalf("Outage() = %+v, %v", outage, ok)
	}
	lines := logs.JSONLines(t)
	if len(lines) != 1 || lines[0]["level"] != "WARN" || !strings.Contains(lines[0]["msg"].(string), "outage started") ||
		lines[0]["route"] != RouteDAGs || lines[0]["failures"] != float64(1) {
		t.Fatalf("after 3 failures: %v", lines)
	}

	clock.Advance(outageReminder)
	mode.Store(2)
	if list() == nil {
		t.Fatal("a closed server answered")
	}
	lines = logs.JSONLines(t)
	if len(lines) != 2 || !strings.Contains(lines[1]["msg"].(string), "outage continues") ||
		lines[1]["failures"] != float64(4) || lines[1]["outcome"] != "network" {
		t.Fatalf("a minute later: %v", lines)
	}

	mode.Store(0)
	clock.Advance(2 * time.Second)
	if _, err := c.GetDAG(ctx, "missing"); err == nil {
		t.Fatal("the missing DAG was found")
	}
	lines = logs.JSONLines(t)
	if len(lines) != 3 || !strings.Contains(lines[2]["msg"].(string), "outage ended") || lines[2]["failures"] != float64(4) ||
		lines[2]["duration_ms"] != float64(outageReminder.Milliseconds()+5000) {
		t.Fatalf("after recovery: %v", lines)
	}
	if _, ok := c.Outage(); ok {
		t.Fatal("the outage outlived the recovery")
	}
}

// TestFlappingOutagesAreRateLimited: a Dagu that goes down and up many
// times at once writes a bounded number of lines, and the next line says
// how many outages it did not log.
func TestFlappingOutagesAreRateLimited(t *testing.T) {
	t.Parallel()
	var logs testkit.LogBuffer
	o := newOutageTracker(slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelWarn})))
	clock := testkit.NewClock(time.Date(2026, 12, 2, 1, 0, 0, 0, time.UTC))
	o.now = clock.Now
	down := &Error{Route: RouteDAGs, Status: http.StatusBadGateway}
	up := &Error{Route: RouteDAGs, Status: http.StatusNotFound, Code: "not_found"}
	for range 50 {
		o.observe(RouteDAGs, APIv1, nil, down)
		o.observe(RouteDAGs, APIv1, nil, up)
	}
	if n := len(logs.JSONLines(t)); n > 12 {
		t.Fatalf("50 flaps wrote %d lines", n)
	}
	clock.Advance(time.Minute)
	o.observe(RouteDAGs, APIv1, nil, down)
	lines := logs.JSONLines(t)
	last := lines[len(lines)-1]
	if held, _ := last["outages_not_logged"].(float64); held < 40 || !strings.Contains(last["msg"].(string), "started") {
		t.Fatalf("the next line after the flaps: %v", last)
	}
	for _, quiet := range []error{&Error{Route: RouteDAGs, Canceled: true}, &Error{Route: RouteDAGs, Busy: true}} {
		o.observe(RouteDAGs, APIv1, nil, quiet)
	}
	if _, ok := o.state(); !ok {
		t.Fatal("the caller going away or the gateway's own cap ended the outage")
	}
}

// TestMissingLogAnswersOf1xAreNoOutage: Dagu 1.x (the /api/v2 releases)
// answers a log read whose file is missing with its handler's 500, so a
// 500 of a log route under /api/v2 is Dagu answering: it neither starts
// nor extends an outage, nor ends one. The same 500 on any other route or
// under /api/v1 (2.x answers a missing file with 404), and any other 5xx
// of a 1.x log route, is an outage.
func TestMissingLogAnswersOf1xAreNoOutage(t *testing.T) {
	t.Parallel()
	root := RunRef{Name: "d", RunID: "r1"}
	sub := RunRef{Name: "d", RunID: "r1", SubRunID: "s1"}
	schedulerLog := func(ref RunRef) func(context.Context, *Client) error {
		return func(ctx context.Context, c *Client) error {
			_, err := c.GetRunLog(ctx, ref, LogWindow{Tail: 5})
			return err
		}
	}
	stepLog := func(ref RunRef) func(context.Context, *Client) error {
		return func(ctx context.Context, c *Client) error {
			_, err := c.GetStepLog(ctx, StepRef{Run: ref, Step: "s"}, gen.StreamStdout, LogWindow{Head: 1})
			return err
		}
	}
	dags := func(ctx context.Context, c *Client) error {
		_, err := c.ListDAGs(ctx, gen.ListDAGsParams{})
		return err
	}
	details := func(ctx context.Context, c *Client) error { _, err := c.GetRun(ctx, root); return err }
	tests := []struct {
		name     string
		base     APIBase
		children bool // Dagu 1.17's /children routes
		status   int
		call     func(context.Context, *Client) error
		outage   bool
	}{
		{"1.x scheduler log", APIv2, false, http.StatusInternalServerError, schedulerLog(root), false},
		{"1.29 sub-run scheduler log", APIv2, false, http.StatusInternalServerError, schedulerLog(sub), false},
		{"1.17 child scheduler log", APIv2, true, http.StatusInternalServerError, schedulerLog(sub), false},
		{"1.x step log", APIv2, false, http.StatusInternalServerError, stepLog(root), false},
		{"1.29 sub-run step log", APIv2, false, http.StatusInternalServerError, stepLog(sub), false},
		{"1.17 child step log", APIv2, true, http.StatusInternalServerError, stepLog(sub), false},
		{"1.x scheduler log, 503", APIv2, false, http.StatusServiceUnavailable, schedulerLog(root), true},
		{"1.x step log, 502", APIv2, false, http.StatusBadGateway, stepLog(root), true},
		{"1.x DAG list", APIv2, false, http.StatusInternalServerError, dags, true},
		{"1.x run details", APIv2, false, http.StatusInternalServerError, details, true},
		{"2.x scheduler log", APIv1, false, http.StatusInternalServerError, schedulerLog(root), true},
		{"2.x step log", APIv1, false, http.StatusInternalServerError, stepLog(sub), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv, _ := newServer(t, func(w http.ResponseWriter, _ *http.Request) {
				writeJSON(w, tt.status, `{"code":"internal_error","message":"An unexpected error occurred"}`)
			})
			var logs testkit.LogBuffer
			c := newTestClient(t, srv.URL, func(cfg *Config) {
				cfg.Retries = -1
				cfg.Logger = slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelWarn}))
			})
			c.SetAPIBase(tt.base)
			c.SetChildRoutes(tt.children)
			if err := tt.call(context.Background(), c); err == nil {
				t.Fatal("a failing answer succeeded")
			}
			if _, ok := c.Outage(); ok != tt.outage || (len(logs.JSONLines(t)) == 1) != tt.outage {
				t.Errorf("outage %v with log lines %v, want outage %v", ok, logs.JSONLines(t), tt.outage)
			}
		})
	}
}

// TestMissingLogAnswersOf1xLeaveAnOutageAlone: during an outage, a 1.x
// missing-log 500 neither counts as one more failure nor ends it.
func TestMissingLogAnswersOf1xLeaveAnOutageAlone(t *testing.T) {
	t.Parallel()
	srv, _ := newServer(t, func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusInternalServerError, `{"code":"internal_error","message":"An unexpected error occurred"}`)
	})
	c := newTestClient(t, srv.URL, func(cfg *Config) { cfg.Retries = -1 })
	c.SetAPIBase(APIv2)
	ctx := context.Background()
	if _, err := c.ListDAGs(ctx, gen.ListDAGsParams{}); err == nil {
		t.Fatal("a 500 succeeded")
	}
	if _, err := c.GetRunLog(ctx, RunRef{Name: "d", RunID: "r1"}, LogWindow{Tail: 5}); err == nil {
		t.Fatal("a 500 succeeded")
	}
	if outage, ok := c.Outage(); !ok || outage.Failures != 1 || outage.Route != RouteDAGs {
		t.Fatalf("Outage() = %+v, %v, want the DAG list's outage with 1 failure", outage, ok)
	}
}
