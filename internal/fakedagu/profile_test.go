// SPDX-License-Identifier: Apache-2.0

package fakedagu_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu/fakedagutest"
)

// startProfile starts a fake of a profile at the time of its recordings,
// adjusted by mutate; the api's URL is the server's base URL plus the
// profile's API base.
func startProfile(t *testing.T, p fakedagu.Profile, mutate func(*fakedagu.Options)) api {
	t.Helper()
	opts := profileOptions(t, p, profileDir(t, p))
	if mutate != nil {
		mutate(&opts)
	}
	s, base := fakedagutest.Start(t, opts)
	return api{server: s, url: base + s.APIPrefix(), auth: "Bearer " + fakedagutest.APIKey}
}

// root returns an api rooted at the server's base URL (no API base).
func (a api) root() api {
	a.url = strings.TrimSuffix(a.url, a.server.APIPrefix())
	return a
}

func profileDir(t *testing.T, p fakedagu.Profile) string {
	t.Helper()
	for _, rp := range recordedProfiles {
		if rp.profile == p {
			return rp.dir
		}
	}
	t.Fatalf("no recordings for profile %s", p)
	return ""
}

func TestParseProfile(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in      string
		want    fakedagu.Profile
		wantErr bool
	}{
		{"", fakedagu.ProfileCurrent, false},
		{"current", fakedagu.ProfileCurrent, false},
		{"2.6", fakedagu.Profile26, false},
		{"v2.6.5", fakedagu.Profile26, false},
		{"2.0.0", fakedagu.Profile20, false},
		{" 1.29 ", fakedagu.Profile129, false},
		{"V1.17.4", fakedagu.Profile117, false},
		{"1.17", fakedagu.Profile117, false},
		{"2.7", "", true},
		{"latest", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := fakedagu.ParseProfile(tt.in)
			if (err != nil) != tt.wantErr || got != tt.want {
				t.Fatalf("ParseProfile(%q) = %q, %v", tt.in, got, err)
			}
		})
	}
	if names := fakedagu.ProfileNames(); !slices.Equal(names, []string{"current", "2.6", "2.0", "1.29", "1.17"}) {
		t.Errorf("ProfileNames() = %v", names)
	}
	for _, p := range fakedagu.Profiles() {
		if got, err := fakedagu.ParseProfile(p.String()); err != nil || got != p {
			t.Errorf("%s does not round-trip: %q %v", p, got, err)
		}
	}
}

func TestUnknownProfilePanics(t *testing.T) {
	t.Parallel()
	defer func() {
		if recover() == nil {
			t.Error("New accepted an unknown profile")
		}
	}()
	fakedagu.New(fakedagu.Options{Profile: "9.9"})
}

func TestProfileRoutingAndAuth(t *testing.T) {
	t.Parallel()
	key := "Bearer " + fakedagutest.APIKey
	mcpKey := "Bearer " + fakedagutest.MCPOnlyKey
	basic := "Basic dXNlcjpwYXNz" // user:pass
	tests := []struct {
		profile           fakedagu.Profile
		name, path, auth  string
		status            int
		contentType, body string
	}{
		{fakedagu.ProfileCurrent, "other API base is a router 404", "/api/v2/dags", key, 404, "text/plain; charset=utf-8", "404 page not found\n"},
		{fakedagu.ProfileCurrent, "pages outside the API are a 404", "/dags", "", 404, "text/plain; charset=utf-8", ""},
		{fakedagu.Profile26, "web UI under /api/v2", "/api/v2/health", "", 200, "text/html; charset=utf-8", "<!DOCTYPE html>"},
		{fakedagu.Profile26, "web UI for any page", "/dags/failing_job", "", 200, "text/html; charset=utf-8", "<!DOCTYPE html>"},
		{fakedagu.Profile26, "router 404 under the API", "/api/v1/wiki", key, 404, "text/plain; charset=utf-8", "404 page not found\n"},
		{fakedagu.Profile26, "keys have no surfaces", "/api/v1/dags?perPage=1", mcpKey, 200, "application/json", ""},
		{fakedagu.Profile26, "event log exists", "/api/v1/event-logs", key, 403, "application/json", "Insufficient permissions"},
		{fakedagu.Profile20, "web UI under /api/v2", "/api/v2/dags", key, 200, "text/html; charset=utf-8", "<!DOCTYPE html>"},
		{fakedagu.Profile20, "no event log", "/api/v1/event-logs", key, 404, "text/plain; charset=utf-8", "404 page not found\n"},
		{fakedagu.Profile20, "no DAG search feed", "/api/v1/search/dags/failing_job/matches?q=echo", key, 404, "text/plain; charset=utf-8", ""},
		{fakedagu.Profile20, "no docs feed", "/api/v1/search/docs/matches?q=a&path=index", key, 404, "text/plain; charset=utf-8", ""},
		{fakedagu.Profile20, "health is public", "/api/v1/health", "", 200, "application/json", "healthy"},
		{fakedagu.Profile129, "no /api/v1", "/api/v1/dags", key, 404, "text/plain; charset=utf-8", "404 page not found\n"},
		{fakedagu.Profile129, "no web UI fallback", "/api/v1/health", "", 404, "text/plain; charset=utf-8", ""},
		{fakedagu.Profile129, "no docs", "/api/v2/docs", key, 404, "text/plain; charset=utf-8", ""},
		{fakedagu.Profile129, "no run spec route", "/api/v2/dag-runs/failing_job/latest/spec", key, 404, "text/plain; charset=utf-8", ""},
		{fakedagu.Profile129, "no downloads", "/api/v2/dag-runs/failing_job/x/log/download", key, 404, "text/plain; charset=utf-8", ""},
		{fakedagu.Profile129, "health is public", "/api/v2/health", "", 200, "application/json", "healthy"},
		{fakedagu.Profile117, "health needs the token", "/api/v2/health", "", 401, "", ""},
		{fakedagu.Profile117, "health with the token", "/api/v2/health", key, 200, "application/json", "healthy"},
		{fakedagu.Profile117, "legacy health is public", "/api/v1/health", "", 200, "application/json", "healthy"},
		{fakedagu.Profile117, "legacy API needs the token", "/api/v1/dags", "", 401, "", ""},
		{fakedagu.Profile117, "legacy routes beyond health are not imitated", "/api/v1/dags", key, 404, "text/plain; charset=utf-8", ""},
		{fakedagu.Profile117, "basic credentials", "/api/v2/dags?perPage=1", basic, 200, "application/json", ""},
		{fakedagu.Profile117, "wrong basic credentials", "/api/v2/dags", "Basic dXNlcjpub3Bl", 401, "", ""},
		{fakedagu.Profile117, "no key surfaces, no second key", "/api/v2/dags", mcpKey, 401, "", ""},
		{fakedagu.Profile117, "no users", "/api/v2/auth/me", key, 404, "text/plain; charset=utf-8", ""},
		{fakedagu.Profile117, "sub-runs are children", "/api/v2/dag-runs/parent_job/nope/children/x", key, 404, "application/json", "child dag-run ID x not found for DAG parent_job"},
		{fakedagu.Profile117, "a sub-run's missing step names the root DAG",
			"/api/v2/dag-runs/parent_job/01a233ce-e7be-7c42-900f-766080039ee9/children/JAQe48QK738cpsBePzgDMNzaQj4WjS8yRiTm6wWK4brQ/steps/nope/log?stream=stdout",
			key, 404, "application/json", "step nope not found in DAG parent_job"},
		{fakedagu.Profile117, "no sub-run list", "/api/v2/dag-runs/parent_job/nope/sub-dag-runs", key, 404, "text/plain; charset=utf-8", ""},
	}
	servers := map[fakedagu.Profile]api{}
	for _, p := range fakedagu.Profiles() {
		servers[p] = startProfile(t, p, func(o *fakedagu.Options) { o.BasicUsername, o.BasicPassword = "user", "pass" }).root()
	}
	for _, tt := range tests {
		t.Run(tt.profile.String()+"/"+tt.name, func(t *testing.T) {
			ans := servers[tt.profile].do(t, http.MethodGet, tt.path, tt.auth)
			if ans.status != tt.status || ans.contentType != tt.contentType || !strings.Contains(string(ans.body), tt.body) {
				t.Fatalf("got %d %q %q, want %d %q containing %q", ans.status, ans.contentType, ans.body, tt.status, tt.contentType, tt.body)
			}
			if tt.status == http.StatusUnauthorized && ans.header.Get("WWW-Authenticate") != `Bearer realm="restricted"` {
				t.Errorf("401 challenge %q", ans.header.Get("WWW-Authenticate"))
			}
		})
	}
}

func TestBasicOnlyChallenge(t *testing.T) {
	t.Parallel()
	a := startProfile(t, fakedagu.Profile117, func(o *fakedagu.Options) {
		o.APIKey, o.BasicUsername, o.BasicPassword = "", "user", "pass"
	})
	ans := a.do(t, http.MethodGet, "/dags", "")
	if ans.status != http.StatusUnauthorized || ans.header.Get("WWW-Authenticate") != `Basic realm="restricted"` {
		t.Fatalf("got %d %v", ans.status, ans.header)
	}
	if got := a.do(t, http.MethodGet, "/dags", "Basic dXNlcjpwYXNz").status; got != http.StatusOK {
		t.Errorf("basic credentials: %d", got)
	}
	current := startAPI(t, func(o *fakedagu.Options) { o.APIKey, o.BasicUsername, o.BasicPassword = "", "user", "pass" })
	if got := current.do(t, http.MethodGet, "/dags", "").status; got != http.StatusOK {
		t.Errorf("the current profile ignores basic credentials (auth mode none): %d", got)
	}
}
