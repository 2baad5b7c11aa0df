// SPDX-License-Identifier: Apache-2.0

package restclient

import (
	"context"
	"net/http"
	"strings"
	"testing"
)

// capsServer serves /health and the given OpenAPI document body (or a
// router-level 404 when doc is ""), a run list that takes filters, and a
// router-level 404 for every other route.
func capsServer(t *testing.T, doc string) string {
	t.Helper()
	srv, _ := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		switch {
		case strings.HasSuffix(r.URL.Path, "/health"):
			writeJSON(w, 200, healthJSON)
		case strings.HasSuffix(r.URL.Path, "/dag-runs"):
			writeJSON(w, 200, `{"dagRuns":[]}`)
		case !strings.HasSuffix(r.URL.Path, "/openapi.json") || doc == "":
			http.Error(w, "404 page not found", http.StatusNotFound)
		default:
			writeJSON(w, 200, doc)
		}
	})
	return srv.URL
}

const newerDoc = `{"openapi":"3.0.0","info":{"title":"x","paths":{"/decoy":{"get":{}}}},"paths":{
 "/dags":{"get":{"parameters":[{"name":"page"}]},"post":{}},
 "/event-logs":{"get":{}},
 "/dag-runs/{dagName}/{runId}/steps/{step}/foreach":{"get":{}},
 "/dag-runs/{dagName}/{runId}/sub-dag-runs/{sub}/steps/{step}/foreach":{"GET":{}},
 "/dag-runs/{n}/{r}/steps/{s}/foreach/{item}":{"get":{}},
 "/dag-runs/{n}/{r}/sub-dag-runs/{sub}/steps/{s}/foreach/{item}":{"get":{}},
 "/dag-runs/{n}/{r}/steps/{s}/foreach/{item}/steps/{b}/log":{"get":{}},
 "/dag-runs/{n}/{r}/sub-dag-runs/{sub}/steps/{s}/foreach/{item}/steps/{b}/log":{"get":{}},
 "/dags/{fileName}/start":{"post":{}}
},"components":{"schemas":{"A":{"type":"object","properties":{"b":[1,2,{"c":null}]}}}}}`

func TestDetectCapabilities(t *testing.T) {
	t.Parallel()
	recorded := string(loadFixtures(t)["001-openapi-json.json"].Response.JSON)
	tests := []struct {
		name        string
		doc         string
		wantForeach bool
		wantEvents  bool
		wantRoute   string
		noRoute     string
	}{
		{"recorded older server", recorded, false, true, "/dags/{fileName}", "/dags/{fileName}/start"},
		{"newer server with other parameter names", newerDoc, true, true, "/dags", "/dags/{fileName}/start"},
		{"server without a document", "", false, false, "", "/dags"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newTestClient(t, capsServer(t, tt.doc), nil)
			caps, err := c.DetectCapabilities(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if caps.Version != "1.2.3" || caps.ForeachRoutes != tt.wantForeach || caps.EventLogs != tt.wantEvents || caps.DetectedAt.IsZero() {
				t.Fatalf("caps = %+v", caps)
			}
			if tt.wantRoute != "" && !caps.Routes[tt.wantRoute] {
				t.Errorf("route %s missing", tt.wantRoute)
			}
			if caps.Routes[tt.noRoute] || caps.Routes["/decoy"] {
				t.Errorf("non-GET or nested route listed: %v", caps.Routes)
			}
		})
	}
}

func TestDetectCapabilitiesFailures(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		doc  string
		want string
	}{
		{"truncated document", `{"paths":{"/dags":{"get":`, "decode"},
		{"paths is not an object", `{"paths":[]}`, "decode"},
		{"not an object", `[1,2]`, "decode"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newTestClient(t, capsServer(t, tt.doc), nil)
			if _, err := c.DetectCapabilities(context.Background()); kindOf(err) != tt.want {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
		})
	}
}

func FuzzDecodeGetRoutes(f *testing.F) {
	f.Add(newerDoc)
	f.Add(`{"paths":{}}`)
	f.Add(`{"paths":{"/a":{"get":1,"x":[{}]}},"z":"y"}`)
	f.Add(`{`)
	f.Fuzz(func(t *testing.T, doc string) {
		routes, err := decodeGetRoutes(strings.NewReader(doc))
		if err != nil {
			return
		}
		for r := range routes {
			if !strings.Contains(doc, r) && !strings.Contains(doc, `\`) {
				t.Fatalf("route %q not in the document", r)
			}
		}
	})
}
