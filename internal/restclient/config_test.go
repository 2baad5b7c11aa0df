// SPDX-License-Identifier: Apache-2.0

package restclient

import (
	"context"
	"net/http"
	"testing"
)

func TestRestBaseURL(t *testing.T) {
	t.Parallel()
	tests := []struct {
		base string
		want string
		ok   bool
	}{
		{"http://dagu:8080", "http://dagu:8080/api/v1", true},
		{"https://dagu.example.com/", "https://dagu.example.com/api/v1", true},
		{"https://example.com/dagu", "https://example.com/dagu/api/v1", true},
		{"https://example.com/dagu/", "https://example.com/dagu/api/v1", true},
		{"https://example.com/my%20dagu", "https://example.com/my%20dagu/api/v1", true},
		{" http://dagu ", "http://dagu/api/v1", true},
		{"ftp://dagu", "", false},
		{"dagu:8080", "", false},
		{"http://", "", false},
		{"http://user:pw@dagu", "", false},
		{"http://dagu/?x=1", "", false},
		{"http://dagu/#frag", "", false},
		{"", "", false},
	}
	for _, tt := range tests {
		u, err := restBaseURL(tt.base, APIv1)
		if (err == nil) != tt.ok {
			t.Errorf("restBaseURL(%q) error = %v", tt.base, err)
			continue
		}
		if tt.ok && u.String() != tt.want {
			t.Errorf("restBaseURL(%q) = %q, want %q", tt.base, u.String(), tt.want)
		}
	}
}

func TestConfigDefaults(t *testing.T) {
	t.Parallel()
	cfg := Config{}.withDefaults()
	if cfg.Timeout != DefaultTimeout || cfg.MaxResponseBytes != DefaultMaxResponseBytes ||
		cfg.Retries != DefaultRetries || cfg.UserAgent != DefaultUserAgent || cfg.Logger == nil || cfg.Key == nil {
		t.Fatalf("defaults not applied: %+v", cfg)
	}
	if got := (Config{Retries: -1}).withDefaults().Retries; got != 0 {
		t.Fatalf("negative retries = %d, want 0", got)
	}
}

func TestBasePathIsKept(t *testing.T) {
	t.Parallel()
	srv, rec := newServer(t, func(w http.ResponseWriter, _ *http.Request) { writeJSON(w, 200, `{"spec":"steps: []"}`) })
	c := newTestClient(t, srv.URL+"/dagu/", nil)
	if spec, err := c.GetDAGSpec(context.Background(), "a b"); err != nil || spec.Spec != "steps: []" {
		t.Fatalf("GetDAGSpec = %+v, %v", spec, err)
	}
	if got := rec.all()[0].EscapedPath; got != "/dagu/api/v1/dags/a%20b/spec" {
		t.Fatalf("path = %q", got)
	}
}
