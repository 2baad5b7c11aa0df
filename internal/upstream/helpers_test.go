// SPDX-License-Identifier: Apache-2.0

package upstream

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient"

	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu/fakedagutest"
)

// fakeNow is the clock of adapter tests: a few hours after the recorded
// runs, so the default 7-day window holds all of them.
var fakeNow = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

// Recorded runs used throughout the adapter tests.
const (
	failingRun = "0356UUn8VwcWFuh5L8qwbp"
	foreachRun = "0356UUnVEGj0qj7EkXG3Be"
	parentRun  = "0356UUnJXB5Ffd1qyncWee"
	childRun   = "91BtJYkQW1SsskLaa43ZUyKwazXZNeYsWuDL4EC3BKCg"
	nestedRun  = "0356UUqK8fRz2LbWnT4cYd"
)

// interceptor may answer a request in place of the fake; it returns false
// to let the fake answer.
type interceptor func(w http.ResponseWriter, r *http.Request) bool

// adapterEnv is an adapter wired to a fake Dagu through a switchable
// front: tests can intercept requests or swap the fake behind the URL.
type adapterEnv struct {
	fake      atomic.Pointer[fakedagu.Server]
	intercept atomic.Pointer[interceptor]
	client    *restclient.Client
	adapter   *Adapter
	key       *switchKey
}

// envOptions tune newAdapterEnv.
type envOptions struct {
	fake    fakedagu.Options
	adapter func(*AdapterOptions)
	// detect runs a capability detection before the test (and forgets its
	// requests).
	detect bool
	// noAuth runs the fake without authentication and sends no key.
	noAuth bool
	// limits, when set, are the REST caps the client shares.
	limits *restclient.Limits
}

func newAdapterEnv(t testing.TB, o envOptions) *adapterEnv {
	t.Helper()
	if o.fake.APIKey == "" && !o.noAuth {
		o.fake.APIKey = fakedagutest.APIKey
	}
	if o.fake.Now == nil {
		o.fake.Now = func() time.Time { return fakeNow }
	}
	env := &adapterEnv{key: &switchKey{}}
	env.key.set(o.fake.APIKey)
	env.fake.Store(fakedagu.New(o.fake))
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if f := env.intercept.Load(); f != nil && (*f)(w, r) {
			return
		}
		env.fake.Load().ServeHTTP(w, r)
	}))
	t.Cleanup(front.Close)
	client, err := restclient.New(restclient.Config{BaseURL: front.URL, Key: env.key, Timeout: 10 * time.Second, RetryBaseWait: time.Millisecond, Limits: o.limits})
	if err != nil {
		t.Fatal(err)
	}
	opts := AdapterOptions{Client: client, Now: func() time.Time { return fakeNow }}
	if o.adapter != nil {
		o.adapter(&opts)
	}
	a, err := NewAdapter(opts)
	if err != nil {
		t.Fatal(err)
	}
	env.client, env.adapter = client, a
	t.Cleanup(a.waitBackground)
	if o.detect {
		if _, err := a.Refresh(context.Background()); err != nil {
			t.Fatal(err)
		}
		env.fake.Load().Reset()
	}
	return env
}

// swap puts another fake behind the adapter's URL.
func (e *adapterEnv) swap(opts fakedagu.Options) *fakedagu.Server {
	if opts.APIKey == "" {
		opts.APIKey = fakedagutest.APIKey
	}
	s := fakedagu.New(opts)
	e.fake.Store(s)
	return s
}

// setIntercept installs f (nil removes it).
func (e *adapterEnv) setIntercept(f interceptor) {
	if f == nil {
		e.intercept.Store(nil)
		return
	}
	e.intercept.Store(&f)
}

// calls runs fn and returns the requests the fake received meanwhile, as
// "path?query" relative to /api/v1 with the query in canonical order,
// sorted (concurrent calls arrive in any order).
func (e *adapterEnv) calls(fn func()) []string {
	fake := e.fake.Load()
	fake.Reset()
	fn()
	var out []string
	for _, r := range fake.Requests() {
		out = append(out, canonicalCall(r.Path, r.RawQuery))
	}
	slices.Sort(out)
	return out
}

// canonicalCall writes a request as "path?query" relative to /api/v1
// with sorted query keys.
func canonicalCall(path, rawQuery string) string {
	path = strings.TrimPrefix(path, "/api/v1")
	q, err := url.ParseQuery(rawQuery)
	if err != nil || len(q) == 0 {
		return path
	}
	return path + "?" + q.Encode()
}

// canonicalCalls canonicalises wanted requests and sorts them.
func canonicalCalls(reqs []string) []string {
	out := make([]string, len(reqs))
	for i, r := range reqs {
		path, query, _ := strings.Cut(r, "?")
		out[i] = canonicalCall(path, query)
	}
	slices.Sort(out)
	return out
}

// switchKey is a KeySource whose key tests can change.
type switchKey struct {
	mu  sync.Mutex
	key string
}

func (k *switchKey) set(key string) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.key = key
}

func (k *switchKey) Key() (string, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.key, nil
}

func (k *switchKey) Fingerprint() string {
	key, _ := k.Key()
	return restclient.KeyFingerprint(key)
}

// refusedInput reports a failure that refuses the caller's value: the
// gateway's own refusal or Dagu's 400.
func refusedInput(e *model.Failure) bool {
	return e.Kind == model.FailureInvalidInput || (e.Kind == model.FailureHTTP && e.Status == http.StatusBadRequest)
}

// errorOf asserts err is a *model.Failure and returns it.
// said renders a reason with its args as told renders a failure's.
func said(r model.FailureReason, args ...string) string {
	var a model.FailureArgs
	copy(a[:], args)
	return told(&model.Failure{Reason: r, Args: a})
}

// told is the reason a failure names, with its args: what the read tool
// words for the agent ("" when the failure names none).
func told(e *model.Failure) string {
	if e.Reason == "" {
		return ""
	}
	return fmt.Sprintf("%s%q", e.Reason, e.Args)
}

func errorOf(t *testing.T, err error) *model.Failure {
	t.Helper()
	e, ok := model.AsFailure(err)
	if !ok {
		t.Fatalf("error %v (%T) is not a *model.Failure", err, err)
	}
	return e
}

// answerJSON writes a JSON answer from an interceptor.
func answerJSON(w http.ResponseWriter, status int, body string) bool {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write([]byte(body))
	return true
}

// fromDateOf formats the implicit window start for fakeNow.
func fromDateOf(now time.Time) string {
	return strconv.FormatInt(now.Add(-DefaultRunWindow).Unix(), 10)
}

// waitBackground waits for the goroutines the adapter started, its
// caches' background refreshes included.
func (a *Adapter) waitBackground() { a.Wait() }
