// SPDX-License-Identifier: Apache-2.0

package restclient

import (
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

// seen is one request as it arrived at a test server.
type seen struct {
	EscapedPath string
	RawQuery    string
	Header      http.Header
}

// recorder remembers every request a test server received.
type recorder struct {
	mu   sync.Mutex
	reqs []seen
}

func (r *recorder) add(req *http.Request) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.reqs = append(r.reqs, seen{EscapedPath: req.URL.EscapedPath(), RawQuery: req.URL.RawQuery, Header: req.Header.Clone()})
}

func (r *recorder) all() []seen {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]seen(nil), r.reqs...)
}

func (r *recorder) count() int { return len(r.all()) }

// newServer starts an HTTP test server that records requests before
// handing them to h.
func newServer(t testing.TB, h http.HandlerFunc) (*httptest.Server, *recorder) {
	t.Helper()
	rec := &recorder{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec.add(r)
		h(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, rec
}

// newTestClient builds a client for baseURL with fast retries; mod may
// adjust the config.
func newTestClient(t *testing.T, baseURL string, mod func(*Config)) *Client {
	t.Helper()
	cfg := Config{BaseURL: baseURL, Key: StaticKey("dagu_test_key"), Timeout: 5 * time.Second, RetryBaseWait: time.Millisecond}
	if mod != nil {
		mod(&cfg)
	}
	c, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// writeJSON answers with a JSON body.
func writeJSON(w http.ResponseWriter, status int, body string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write([]byte(body))
}

const healthJSON = `{"status":"healthy","version":"1.2.3","uptime":1,"timestamp":"t"}`

// kindOf names the fact an *Error records ("http" for an error answer,
// see Error.outcome), or "" for any other error.
func kindOf(err error) string {
	if e, ok := AsError(err); ok {
		return e.outcome()
	}
	return ""
}
