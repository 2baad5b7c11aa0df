// SPDX-License-Identifier: Apache-2.0

package restclient

import (
	"context"
	"net/http"
	"strings"
	"testing"
)

// TestDetectAPIBase covers how each Dagu release answers the two bases:
// 2.x serves /api/v1 and its web UI under /api/v2; 1.x serves /api/v2
// (1.17 with a static token refuses it without the token, and also has a
// legacy /api/v1); a missing base is a router-level 404.
func TestDetectAPIBase(t *testing.T) {
	t.Parallel()
	type answer func(w http.ResponseWriter)
	var (
		health answer = func(w http.ResponseWriter) { writeJSON(w, 200, healthJSON) }
		webUI  answer = func(w http.ResponseWriter) {
			w.Header().Set("Content-Type", "text/html")
			_, _ = w.Write([]byte("<html></html>"))
		}
		notFound answer = func(w http.ResponseWriter) { http.Error(w, "404 page not found", http.StatusNotFound) }
		refused  answer = func(w http.ResponseWriter) { w.WriteHeader(http.StatusUnauthorized) }
		broken   answer = func(w http.ResponseWriter) { writeJSON(w, 500, `{"code":"internal_error","message":"x"}`) }
	)
	tests := []struct {
		name    string
		v1, v2  answer
		want    APIBase
		wantErr bool
	}{
		{"Dagu 2.x", health, webUI, APIv1, false},
		{"Dagu 1.29", notFound, health, APIv2, false},
		{"Dagu 1.17 with its token", health, health, APIv2, false},
		{"Dagu 1.17 without a valid token", health, refused, APIv2, false},
		{"no Dagu there", notFound, notFound, "", true},
		{"a web server, not Dagu", webUI, webUI, "", true},
		{"a failing server", broken, broken, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, _ := newServer(t, func(w http.ResponseWriter, r *http.Request) {
				switch {
				case strings.HasPrefix(r.URL.Path, "/dagu/api/v1/"):
					tt.v1(w)
				case strings.HasPrefix(r.URL.Path, "/dagu/api/v2/"):
					tt.v2(w)
				default:
					notFound(w)
				}
			})
			c := newTestClient(t, srv.URL+"/dagu", func(cfg *Config) { cfg.Retries = 0 })
			got, err := c.DetectAPIBase(context.Background())
			if (err != nil) != tt.wantErr || got != tt.want {
				t.Fatalf("DetectAPIBase = %q, %v; want %q (error %v)", got, err, tt.want, tt.wantErr)
			}
			wantInUse := tt.want
			if tt.wantErr {
				wantInUse = APIv1 // unchanged
			}
			if c.APIBase() != wantInUse {
				t.Fatalf("base in use = %q, want %q", c.APIBase(), wantInUse)
			}
		})
	}
}

// TestCallsUseTheDetectedBase: after detection every call, and the guard,
// work under the detected base.
func TestCallsUseTheDetectedBase(t *testing.T) {
	t.Parallel()
	srv, rec := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/api/v2/") {
			writeJSON(w, 200, healthJSON)
			return
		}
		http.Error(w, "404 page not found", http.StatusNotFound)
	})
	c := newTestClient(t, srv.URL, nil)
	if _, err := c.DetectAPIBase(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Health(context.Background()); err != nil {
		t.Fatal(err)
	}
	seen := rec.all()
	if last := seen[len(seen)-1]; last.EscapedPath != "/api/v2/health" {
		t.Fatalf("last request %q, want /api/v2/health", last.EscapedPath)
	}
}
