// SPDX-License-Identifier: Apache-2.0

package fakedagu

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// paramPattern matches a path parameter; parameter names differ between
// a release's document and the route table ({childDAGRunId} on 1.17).
var paramPattern = regexp.MustCompile(`\{[^}]+\}`)

// Every route a profile serves is a GET route of its release's OpenAPI
// document (the foreach routes of newer servers excepted), and the route
// groups it lacks are absent from that document.
func TestRoutesAreRoutesOfTheRelease(t *testing.T) {
	t.Parallel()
	for _, p := range profileOrder {
		t.Run(p.String(), func(t *testing.T) {
			d := dialectOf(p)
			docPaths := releaseGetPaths(t, d)
			s := New(Options{Profile: p, Foreach: ForeachRoutes})
			for _, rt := range s.router.routes {
				if strings.Contains(rt.template, "/foreach") {
					continue
				}
				if !slices.Contains(docPaths, normalizeParams(rt.template)) {
					t.Errorf("%s is not a GET route of %s", rt.template, d.release)
				}
			}
			for _, absent := range []string{"/openapi.json", "/event-logs", "/search/dags", "/docs", "/search/docs", "/wiki", "/auth/me"} {
				_, served := s.router.find(absent)
				if documented := slices.Contains(docPaths, absent); served != nil && !documented {
					t.Errorf("%s is served but not documented", absent)
				}
			}
		})
	}
}

// releaseGetPaths reads the GET paths of a release's OpenAPI document.
func releaseGetPaths(t *testing.T, d *dialect) []string {
	t.Helper()
	name := filepath.Join(d.dataDir, "openapi-get-paths.json")
	if d.profile == ProfileCurrent {
		name = filepath.Join("testdata", "openapi-get-paths.json")
	}
	raw, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		GetPaths []string `json:"getPaths"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	out := make([]string, len(doc.GetPaths))
	for i, p := range doc.GetPaths {
		out[i] = normalizeParams(p)
	}
	return out
}

func normalizeParams(p string) string { return paramPattern.ReplaceAllString(p, "{}") }

func TestForeachRoutesOnlyOnTheCurrentProfile(t *testing.T) {
	t.Parallel()
	for _, p := range profileOrder {
		s := New(Options{Profile: p, Foreach: ForeachRoutes})
		rt, _ := s.router.find("/dag-runs/a/b/steps/c/foreach")
		if (rt != nil) != (p == ProfileCurrent) {
			t.Errorf("%s: foreach route served = %v", p, rt != nil)
		}
	}
}
