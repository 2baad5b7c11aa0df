// SPDX-License-Identifier: Apache-2.0

package restclient

import (
	"context"
	"net/http"
	"testing"
)

// serveFixture answers every request with one recorded response.
func serveFixture(fx fixture) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		for k, v := range fx.Response.Headers {
			w.Header().Set(k, v)
		}
		if fx.Response.ContentType != "" {
			w.Header().Set("Content-Type", fx.Response.ContentType)
		}
		w.WriteHeader(fx.Response.Status)
		_, _ = w.Write(fx.body())
	}
}

func TestErrorBodies(t *testing.T) {
	t.Parallel()
	fixtures := loadFixtures(t)
	textBadRequest := fixture{}
	textBadRequest.Response.Status = 400
	textBadRequest.Response.ContentType = "text/plain; charset=utf-8"
	text := "Invalid format for parameter page: error binding string parameter\n"
	textBadRequest.Response.Text = &text

	tests := []struct {
		name         string
		fx           fixture
		status       int
		code         string
		surface      bool
		routeMissing bool
	}{
		{"empty 401, no content type", fixtures["059-dags.json"], 401, "", false, false},
		{"empty 401 for a wrong key", fixtures["060-dags.json"], 401, "", false, false},
		{"plain-text 403 surface denial", fixtures["061-dags.json"], 403, "", true, false},
		{"plain-text 400 binding error", textBadRequest, 400, "", false, false},
		{"JSON 400", fixtures["014-dags-bad-20name.json"], 400, "bad_request", false, false},
		{"JSON 404 from a handler", fixtures["013-dags-no-such-dag.json"], 404, "not_found", false, false},
		{"router-level 404", fixtures["058-dag-runs-foreach-job-0356UUnVEGj0qj7EkXG3Be-steps-each-fore.json"], 404, "", false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, rec := newServer(t, serveFixture(tt.fx))
			c := newTestClient(t, srv.URL, nil)
			_, err := c.GetDAG(context.Background(), "some_dag")
			e, ok := AsError(err)
			if !ok || e.Status == 0 {
				t.Fatalf("err = %v, want an error answer", err)
			}
			if e.Status != tt.status || e.Code != tt.code || e.SurfaceDenied != tt.surface || e.Route != RouteDAG {
				t.Errorf("got status=%d code=%q surface=%v route=%q", e.Status, e.Code, e.SurfaceDenied, e.Route)
			}
			if IsRouteMissing(err) != tt.routeMissing {
				t.Errorf("IsRouteMissing = %v", !tt.routeMissing)
			}
			if rec.count() != 1 {
				t.Errorf("server saw %d requests", rec.count())
			}
		})
	}
}

func TestSurfaceDeniedNeedsPlainText(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name        string
		status      int
		contentType string
		body        string
		want        bool
	}{
		{"plain text 403", 403, "text/plain; charset=utf-8", surfaceDeniedText + "\n", true},
		{"no content type", 403, "", surfaceDeniedText, true},
		{"JSON 403 with the same words", 403, "application/json", `{"code":"forbidden","message":"` + surfaceDeniedText + `"}`, false},
		{"text 401", 401, "text/plain", surfaceDeniedText, false},
		{"other text 403", 403, "text/plain", "forbidden", false},
		{"words later in the body", 403, "text/plain", "note\n" + surfaceDeniedText, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := httpError(RouteDAGs, tt.status, tt.contentType, []byte(tt.body))
			if e.SurfaceDenied != tt.want {
				t.Fatalf("SurfaceDenied = %v, want %v", e.SurfaceDenied, tt.want)
			}
		})
	}
}

func FuzzHTTPError(f *testing.F) {
	f.Add(404, "application/json", []byte(`{"code":"not_found","message":"x"}`))
	f.Add(403, "text/plain", []byte(surfaceDeniedText+"\n"))
	f.Add(400, "application/json", []byte(`{"code":`))
	f.Add(500, "text/html; charset=\"", []byte("<h1>oops</h1>"))
	f.Fuzz(func(t *testing.T, status int, contentType string, body []byte) {
		e := httpError(RouteDAGs, status, contentType, body)
		if e.Status == 0 || e.Status != status || e.Route != RouteDAGs {
			t.Fatalf("bad error %#v", e)
		}
		if len(e.Excerpt) > maxExcerpt+len("…") {
			t.Fatalf("message not clipped: %d bytes", len(e.Excerpt))
		}
		if e.SurfaceDenied && (status != 403 || isJSON(contentType)) {
			t.Fatalf("surface flag on %d %q", status, contentType)
		}
	})
}
