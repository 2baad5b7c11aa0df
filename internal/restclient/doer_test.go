// SPDX-License-Identifier: Apache-2.0

package restclient

import (
	"context"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestAuthorizationAndUserAgent(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		key      KeySource
		wantAuth string
	}{
		{"static key is trimmed", StaticKey("  dagu_abc \n"), "Bearer dagu_abc"},
		{"empty key sends no header", StaticKey(""), ""},
		{"nil key sends no header", nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, rec := newServer(t, func(w http.ResponseWriter, _ *http.Request) { writeJSON(w, 200, healthJSON) })
			c := newTestClient(t, srv.URL, func(cfg *Config) {
				cfg.Key = tt.key
				cfg.UserAgent = "dagu-mcp-gateway/9.9.9"
			})
			if _, err := c.Health(context.Background()); err != nil {
				t.Fatal(err)
			}
			got := rec.all()[0].Header
			if got.Get("Authorization") != tt.wantAuth {
				t.Errorf("Authorization = %q, want %q", got.Get("Authorization"), tt.wantAuth)
			}
			if _, present := got["Authorization"]; tt.wantAuth == "" && present {
				t.Error("Authorization header present for an empty key")
			}
			if ua := got.Get("User-Agent"); ua != "dagu-mcp-gateway/9.9.9" {
				t.Errorf("User-Agent = %q", ua)
			}
		})
	}
}

func TestDefaultUserAgent(t *testing.T) {
	t.Parallel()
	srv, rec := newServer(t, func(w http.ResponseWriter, _ *http.Request) { writeJSON(w, 200, healthJSON) })
	c := newTestClient(t, srv.URL, nil)
	if _, err := c.Health(context.Background()); err != nil {
		t.Fatal(err)
	}
	if ua := rec.all()[0].Header.Get("User-Agent"); ua != DefaultUserAgent {
		t.Errorf("User-Agent = %q, want %q", ua, DefaultUserAgent)
	}
}

// script answers the n-th request (0-based) with steps[n], repeating the
// last step after the end.
type step struct {
	status     int
	retryAfter string
	reset      bool // drop the connection without an answer
}

func scripted(t *testing.T, steps ...step) http.HandlerFunc {
	var n atomic.Int32
	return func(w http.ResponseWriter, _ *http.Request) {
		i := int(n.Add(1)) - 1
		s := steps[min(i, len(steps)-1)]
		if s.reset {
			conn, _, err := w.(http.Hijacker).Hijack()
			if err != nil {
				t.Error(err)
				return
			}
			_ = conn.Close()
			return
		}
		if s.retryAfter != "" {
			w.Header().Set("Retry-After", s.retryAfter)
		}
		if s.status == 200 {
			writeJSON(w, 200, healthJSON)
			return
		}
		writeJSON(w, s.status, `{"code":"x","message":"scripted"}`)
	}
}

func TestRetries(t *testing.T) {
	t.Parallel()
	future := time.Now().Add(time.Hour).UTC().Format(http.TimeFormat)
	tests := []struct {
		name       string
		steps      []step
		retries    int
		wantKind   string // "" = success
		wantStatus int
		wantCalls  int
	}{
		{"503 twice then 200", []step{{status: 503}, {status: 503}, {status: 200}}, 2, "", 0, 3},
		{"502 and 504 are retried", []step{{status: 502}, {status: 504}, {status: 200}}, 2, "", 0, 3},
		{"429 with Retry-After seconds", []step{{status: 429, retryAfter: "1"}, {status: 200}}, 2, "", 0, 2},
		{"connection reset then 200", []step{{reset: true}, {status: 200}}, 2, "", 0, 2},
		{"503 forever exhausts retries", []step{{status: 503}}, 2, "http", 503, 3},
		{"retries disabled", []step{{status: 503}, {status: 200}}, -1, "http", 503, 1},
		{"400 is not retried", []step{{status: 400}, {status: 200}}, 2, "http", 400, 1},
		{"404 is not retried", []step{{status: 404}, {status: 200}}, 2, "http", 404, 1},
		{"500 is not retried", []step{{status: 500}, {status: 200}}, 2, "http", 500, 1},
		{"Retry-After past the deadline stops at once", []step{{status: 429, retryAfter: "3600"}, {status: 200}}, 2, "http", 429, 1},
		{"Retry-After date past the deadline stops", []step{{status: 503, retryAfter: future}, {status: 200}}, 2, "http", 503, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, rec := newServer(t, scripted(t, tt.steps...))
			c := newTestClient(t, srv.URL, func(cfg *Config) { cfg.Retries = tt.retries })
			_, err := c.Health(context.Background())
			if kindOf(err) != tt.wantKind {
				t.Fatalf("err = %v, want kind %v", err, tt.wantKind)
			}
			if e, ok := AsError(err); ok && e.Status != tt.wantStatus {
				t.Errorf("status = %d, want %d", e.Status, tt.wantStatus)
			}
			if e, ok := AsError(err); ok && e.Route != RouteHealth {
				t.Errorf("route = %q", e.Route)
			}
			if got := rec.count(); got != tt.wantCalls {
				t.Errorf("server saw %d requests, want %d", got, tt.wantCalls)
			}
		})
	}
}

func TestRetryKeepsLastErrorBody(t *testing.T) {
	t.Parallel()
	srv, _ := newServer(t, func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, 503, `{"code":"timeout","message":"busy"}`)
	})
	c := newTestClient(t, srv.URL, nil)
	_, err := c.Health(context.Background())
	e, ok := AsError(err)
	if !ok || e.Status != 503 || e.Code != "timeout" || e.Excerpt != "busy" {
		t.Fatalf("err = %#v", err)
	}
}

func TestRetryWaitPolicy(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		header string
		want   time.Duration
		ok     bool
	}{
		{"0", 0, true},
		{"7", 7 * time.Second, true},
		{" 12 ", 12 * time.Second, true},
		{now.Add(30 * time.Second).Format(http.TimeFormat), 30 * time.Second, true},
		{now.Add(-time.Minute).Format(http.TimeFormat), 0, true},
		{"-3", 0, false},
		{"soon", 0, false},
		{"", 0, false},
		{"99999999999999999999", 0, false},
		{"1000000", 24 * time.Hour, true},
	}
	for _, tt := range tests {
		got, ok := parseRetryAfter(tt.header, now)
		if got != tt.want || ok != tt.ok {
			t.Errorf("parseRetryAfter(%q) = %v, %v; want %v, %v", tt.header, got, ok, tt.want, tt.ok)
		}
	}
}

func TestBackoffGrowsAndIsCapped(t *testing.T) {
	t.Parallel()
	p := &retryPolicy{baseWait: 100 * time.Millisecond}
	for attempt, limit := range map[int]time.Duration{1: 100 * time.Millisecond, 2: 200 * time.Millisecond, 3: 400 * time.Millisecond, 20: maxBackoff} {
		for range 50 {
			d := p.backoff(attempt)
			if d < limit/2 || d > limit {
				t.Fatalf("backoff(%d) = %v, want within [%v, %v]", attempt, d, limit/2, limit)
			}
		}
	}
}

func FuzzParseRetryAfter(f *testing.F) {
	for _, s := range []string{"0", "120", "Wed, 21 Oct 2015 07:28:00 GMT", "-1", "x", "", "1e3"} {
		f.Add(s)
	}
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, v string) {
		d, ok := parseRetryAfter(v, now)
		if d < 0 || d > 24*time.Hour {
			t.Fatalf("parseRetryAfter(%q) = %v", v, d)
		}
		if !ok && d != 0 {
			t.Fatalf("rejected value with non-zero wait %v", d)
		}
	})
}

func TestTimeoutAndCancel(t *testing.T) {
	t.Parallel()
	block := make(chan struct{})
	t.Cleanup(func() { close(block) })
	srv, _ := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-block:
		}
	})
	t.Run("per-call timeout", func(t *testing.T) {
		c := newTestClient(t, srv.URL, func(cfg *Config) { cfg.Timeout = 50 * time.Millisecond })
		_, err := c.Health(context.Background())
		if kindOf(err) != "timeout" {
			t.Fatalf("err = %v, want timeout", err)
		}
	})
	t.Run("caller cancels", func(t *testing.T) {
		c := newTestClient(t, srv.URL, nil)
		ctx, cancel := context.WithCancel(context.Background())
		go func() { time.Sleep(20 * time.Millisecond); cancel() }()
		_, err := c.Health(ctx)
		if kindOf(err) != "canceled" {
			t.Fatalf("err = %v, want canceled", err)
		}
	})
}

func TestNetworkFailure(t *testing.T) {
	t.Parallel()
	srv, _ := newServer(t, func(http.ResponseWriter, *http.Request) {})
	url := srv.URL
	srv.Close()
	c := newTestClient(t, url, nil)
	_, err := c.Health(context.Background())
	if kindOf(err) != "network" {
		t.Fatalf("err = %v, want network", err)
	}
}

func TestResponseSizeCap(t *testing.T) {
	t.Parallel()
	const limit = 200
	tests := []struct {
		name string
		size int
		want string
	}{
		{"below the cap", limit - 1, ""},
		{"exactly the cap", limit, ""},
		{"one byte over", limit + 1, "too_large"},
		{"far over", 10 * limit, "too_large"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body := healthJSON + strings.Repeat(" ", tt.size-len(healthJSON))
			srv, _ := newServer(t, func(w http.ResponseWriter, _ *http.Request) { writeJSON(w, 200, body) })
			c := newTestClient(t, srv.URL, func(cfg *Config) { cfg.MaxResponseBytes = limit })
			_, err := c.Health(context.Background())
			if kindOf(err) != tt.want {
				t.Fatalf("err = %v, want kind %v", err, tt.want)
			}
			if tt.want != "" {
				if e, _ := AsError(err); e.Route != RouteHealth {
					t.Errorf("route = %q", e.Route)
				}
			}
		})
	}
}

func TestUndecodableAnswers(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name              string
		status            int
		contentType, body string
		excerpt           string
		mediaType         string // the fact an operator's message names
	}{
		{"broken JSON", 200, "application/json", `{"status":`, "undecodable answer: ", ""},
		{"wrong JSON type", 200, "application/json", `{"status":42,"version":[]}`, "undecodable answer: ", ""},
		{"not JSON at all", 200, "text/html", "<html></html>", "answer is not a JSON body (text/html)", "text/html"},
		{"a web page with a charset", 200, "text/html; charset=utf-8", "<html></html>", "answer is not a JSON body (text/html)", "text/html"},
		{"no content type", 200, "", "<html></html>", "answer is not a JSON body (no content type)", "no content type"},
		{"JSON null", 200, "application/json", "null", "answer is JSON null", ""},
		{"JSON null with space", 200, "application/json", " null \n", "answer is JSON null", ""},
		{"garbage", 200, "application/json", "\x00\xff garbage", "undecodable answer: ", ""},
		{"empty body", 200, "application/json", "", "undecodable answer: ", ""},
		{"2xx other than 200 with an error body", 203, "application/json", `{"code":"x","message":"m"}`, "answer is not a JSON body", ""},
		{"2xx other than 200 with broken JSON", 203, "application/json", `{"code":`, "undecodable answer: ", ""},
		{"2xx other than 200, not JSON", 203, "text/plain", "ok", "answer is not a JSON body", "text/plain"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, _ := newServer(t, func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Type", tt.contentType)
				w.WriteHeader(tt.status)
				_, _ = w.Write([]byte(tt.body))
			})
			c := newTestClient(t, srv.URL, nil)
			_, err := c.Health(context.Background())
			if kindOf(err) != "decode" {
				t.Fatalf("err = %v, want decode", err)
			}
			e, _ := AsError(err)
			if !strings.HasPrefix(e.Excerpt, tt.excerpt) || e.Route != RouteHealth {
				t.Errorf("excerpt %q on route %q, want %q... on %q", e.Excerpt, e.Route, tt.excerpt, RouteHealth)
			}
			if e.ContentType != tt.mediaType {
				t.Errorf("content type %q, want %q", e.ContentType, tt.mediaType)
			}
		})
	}
}

// TestHTTPSAgainstPlainHTTP: an https URL whose server speaks plain HTTP
// fails with the PlainHTTP fact (which doctor and the start-up log name),
// still as a network failure (what the agent is told is unchanged), but is
// no Dagu outage: Dagu answered, on a URL with the wrong scheme, and a
// "Dagu outage started" line would send the operator after a Dagu that is
// up. A server that accepts no connection at all is not mistaken for one,
// and is an outage.
func TestHTTPSAgainstPlainHTTP(t *testing.T) {
	t.Parallel()
	srv, _ := newServer(t, func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusOK) })
	closed, _ := newServer(t, func(http.ResponseWriter, *http.Request) {})
	closed.Close()
	for _, tc := range []struct {
		url       string
		plainHTTP bool
	}{
		{strings.Replace(srv.URL, "http://", "https://", 1), true},
		{strings.Replace(closed.URL, "http://", "https://", 1), false},
	} {
		c := newTestClient(t, tc.url, func(c *Config) { c.Retries = -1 })
		_, err := c.Health(context.Background())
		e, ok := AsError(err)
		if !ok || e.PlainHTTP != tc.plainHTTP || kindOf(err) != "network" {
			t.Errorf("%s: err = %v (%+v), want PlainHTTP %v as a network failure", tc.url, err, e, tc.plainHTTP)
		}
		if _, outage := c.Outage(); outage == tc.plainHTTP {
			t.Errorf("%s: outage %v, want %v", tc.url, outage, !tc.plainHTTP)
		}
	}
}

func TestRedirectIsNotFollowed(t *testing.T) {
	t.Parallel()
	srv, rec := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/api/v1/dags/", http.StatusMovedPermanently)
	})
	c := newTestClient(t, srv.URL, nil)
	_, err := c.Health(context.Background())
	if e, ok := AsError(err); !ok || e.Status == 0 || e.Status != 301 {
		t.Fatalf("err = %v, want HTTP 301", err)
	}
	if rec.count() != 1 {
		t.Fatalf("server saw %d requests", rec.count())
	}
}
