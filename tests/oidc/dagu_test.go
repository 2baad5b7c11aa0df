// SPDX-License-Identifier: Apache-2.0

//go:build oidc

package oidc

import (
	"crypto/rand"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
)

// dagu is a fake Dagu of the current release that accepts one key per
// access rule and records which of them reached it, and whether a
// request ever carried anything else (a sign-in token would be a leak).
type dagu struct {
	url      string
	fake     *fakedagu.Server
	own      string            // the key the fake itself accepts
	keys     map[string]string // rule -> its Dagu key
	mu       sync.Mutex
	seen     map[string]int // rule -> requests that carried its key
	strange  int            // requests with a credential of no rule
	bare     int            // requests with no credential
	jwtShape bool           // a request carried something shaped like a JWT
}

// ownKey names the fake's own key among the rules' keys.
const ownKey = "(own)"

// newDagu serves a fake Dagu with a random key for each rule; it stops
// when the test ends.
func newDagu(t *testing.T, rules ...string) *dagu {
	t.Helper()
	d := &dagu{own: "dagu_own_" + rand.Text(), keys: map[string]string{}, seen: map[string]int{}}
	for _, r := range rules {
		d.keys[r] = "dagu_" + r + "_" + rand.Text()
	}
	d.keys[ownKey] = d.own // the instance's own key (release detection, health)
	d.fake = fakedagu.New(fakedagu.Options{APIKey: d.own, Role: "admin", Foreach: fakedagu.ForeachRoutes,
		Rebase: time.Now().Add(-30 * time.Minute), Profile: fakedagu.ProfileCurrent})
	srv := httptest.NewServer(d)
	t.Cleanup(srv.Close)
	d.url = srv.URL
	return d
}

// ServeHTTP records whose key a request carried and answers it as the
// fake with its own key; a request with no rule's key is answered 401.
func (d *dagu) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	bearer := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
	rule := ""
	for name, key := range d.keys {
		if bearer == key {
			rule = name
		}
	}
	d.mu.Lock()
	switch {
	case bearer == "":
		d.bare++
	case rule == "":
		d.strange++
	default:
		d.seen[rule]++
	}
	d.jwtShape = d.jwtShape || strings.HasPrefix(bearer, "eyJ")
	d.mu.Unlock()
	if rule == "" {
		http.Error(w, `{"code":"unauthorized","message":"unknown key"}`, http.StatusUnauthorized)
		return
	}
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+d.own)
	d.fake.ServeHTTP(w, r)
}

// reads returns how many requests carried the rule's key.
func (d *dagu) reads(rule string) int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.seen[rule]
}

// leaks reports requests with a credential of no rule, and whether one was
// a JWT.
func (d *dagu) leaks() (int, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.strange, d.jwtShape
}

// keyFile writes the rule's key to name in dir, readable by the owner
// only.
func (d *dagu) keyFile(t *testing.T, dir, name, rule string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(d.keys[rule]+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
}
