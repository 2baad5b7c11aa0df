// SPDX-License-Identifier: Apache-2.0

package fakedagu_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
)

func TestStatusFaults(t *testing.T) {
	t.Parallel()
	a := startAPI(t, nil)
	a.server.Inject(fakedagu.Fault{Route: "/dag-runs/{name}/{dagRunId}", Times: 2, Status: http.StatusServiceUnavailable, RetryAfter: "3"})
	a.server.Inject(fakedagu.Fault{Route: "/dags", Status: http.StatusTooManyRequests, Body: "slow down"})
	const run = "/dag-runs/failing_job/0356UUn8VwcWFuh5L8qwbp"
	for i := range 2 {
		ans := a.get(t, run)
		if ans.status != http.StatusServiceUnavailable || ans.header.Get("Retry-After") != "3" || ans.message(t) != "injected fault" {
			t.Errorf("call %d: %d %v %s", i, ans.status, ans.header, ans.body)
		}
	}
	if ans := a.get(t, run); ans.status != http.StatusOK {
		t.Errorf("after Times uses the route answers normally: %d", ans.status)
	}
	if ans := a.get(t, run+"/log"); ans.status != http.StatusOK {
		t.Errorf("other routes are untouched: %d", ans.status)
	}
	for range 3 {
		if ans := a.get(t, "/dags"); ans.status != http.StatusTooManyRequests || string(ans.body) != "slow down" || ans.contentType != "text/plain; charset=utf-8" {
			t.Errorf("Times 0 means forever: %d %q %q", ans.status, ans.contentType, ans.body)
		}
	}
	a.server.ClearFaults()
	if ans := a.get(t, "/dags"); ans.status != http.StatusOK {
		t.Errorf("after ClearFaults: %d", ans.status)
	}
}

func TestFaultsBeforeAuthAndRouting(t *testing.T) {
	t.Parallel()
	a := startAPI(t, nil)
	a.server.Inject(fakedagu.Fault{Route: "*", Times: 1, Status: http.StatusBadGateway})
	if ans := a.do(t, http.MethodGet, "/no/such/route", ""); ans.status != http.StatusBadGateway {
		t.Errorf("* matches unknown routes without credentials: %d", ans.status)
	}
}

func TestBrokenAnswers(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		fault   fakedagu.Fault
		wantErr bool // the transport or body read fails
		check   func(t *testing.T, resp *http.Response, body []byte)
	}{
		{"reset", fakedagu.Fault{Route: "/dags", Reset: true}, true, nil},
		{"truncate", fakedagu.Fault{Route: "/dags", Truncate: true}, true, nil},
		{"malformed", fakedagu.Fault{Route: "/dags", Malformed: true}, false, func(t *testing.T, resp *http.Response, body []byte) {
			if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "application/json" || json.Valid(body) {
				t.Errorf("malformed: %d %q valid=%v", resp.StatusCode, resp.Header.Get("Content-Type"), json.Valid(body))
			}
		}},
		{"oversize", fakedagu.Fault{Route: "/dags", Oversize: 3 << 20}, false, func(t *testing.T, resp *http.Response, body []byte) {
			if len(body) != 3<<20 || !json.Valid(body) || resp.ContentLength != -1 {
				t.Errorf("oversize: %d bytes, valid=%v, declared %d", len(body), json.Valid(body), resp.ContentLength)
			}
		}},
		{"tiny oversize", fakedagu.Fault{Route: "/dags", Oversize: 5}, false, func(t *testing.T, _ *http.Response, body []byte) {
			if len(body) != 5 || !json.Valid(body) {
				t.Errorf("oversize 5: %q", body)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := startAPI(t, nil)
			a.server.Inject(tt.fault)
			req, _ := http.NewRequest(http.MethodGet, a.url+"/dags", nil)
			req.Header.Set("Authorization", a.auth)
			resp, err := http.DefaultClient.Do(req)
			var body []byte
			if err == nil {
				body, err = io.ReadAll(resp.Body)
				resp.Body.Close()
			}
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, want error: %v", err, tt.wantErr)
			}
			if tt.check != nil {
				tt.check(t, resp, body)
			}
		})
	}
}

func TestLatencyDelaysTheAnswer(t *testing.T) {
	t.Parallel()
	a := startAPI(t, nil)
	a.server.Inject(fakedagu.Fault{Route: "/health", Times: 1, Latency: time.Hour})
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, a.url+"/health", nil)
	done := make(chan error, 1)
	go func() {
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			resp.Body.Close()
		}
		done <- err
	}()
	waitForRequests(t, a.server, 1)
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("a delayed answer must still be waiting when the client gives up: %v", err)
	}
	if ans := a.get(t, "/health"); ans.status != http.StatusOK {
		t.Errorf("the fault was used once: %d", ans.status)
	}
}

// waitForRequests blocks until the server has received n requests.
func waitForRequests(t *testing.T, s *fakedagu.Server, n int) {
	t.Helper()
	for range 10000 {
		if len(s.Requests()) >= n {
			return
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatalf("the server did not receive %d requests", n)
}
