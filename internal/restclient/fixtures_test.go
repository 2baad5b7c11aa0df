// SPDX-License-Identifier: Apache-2.0

package restclient

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient/gen"
)

// fixture is one recorded Dagu exchange. The recordings live with the fake
// Dagu; only the trimmed OpenAPI document (001) is kept in testdata here.
type fixture struct{ fakedagu.Recording }

func loadFixtures(t testing.TB) map[string]fixture {
	t.Helper()
	recs, err := fakedagu.Recordings()
	if err != nil || len(recs) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	out := make(map[string]fixture, len(recs)+1)
	for name, rec := range recs {
		out[name] = fixture{rec}
	}
	const openapi = "001-openapi-json.json"
	raw, err := os.ReadFile(filepath.Join("testdata", "fixtures", openapi))
	if err != nil {
		t.Fatal(err)
	}
	var rec fakedagu.Recording
	if err := json.Unmarshal(raw, &rec); err != nil {
		t.Fatalf("%s: %v", openapi, err)
	}
	out[openapi] = fixture{rec}
	return out
}

// body returns the recorded response body bytes.
func (f fixture) body() []byte { return f.Body() }

// httpResponse rebuilds the recorded answer as an *http.Response.
func (f fixture) httpResponse() *http.Response {
	h := http.Header{}
	if f.Response.ContentType != "" {
		h.Set("Content-Type", f.Response.ContentType)
	}
	for k, v := range f.Response.Headers {
		h.Set(k, v)
	}
	return &http.Response{
		StatusCode: f.Response.Status,
		Header:     h,
		Body:       io.NopCloser(bytes.NewReader(f.body())),
	}
}

// routeOf returns the route template of a recorded request path.
func routeOf(t testing.TB, recordedPath string) string {
	t.Helper()
	path, _, _ := strings.Cut(recordedPath, "?")
	rest, ok := strings.CutPrefix(path, "/api/v1")
	if !ok {
		t.Fatalf("fixture path %q is outside /api/v1", recordedPath)
	}
	p, ok := newMatcher(allowedRoutes).match(rest)
	if !ok {
		t.Fatalf("fixture path %q matches no allowed route", recordedPath)
	}
	return p.template
}

// parsers decode a 2xx answer of a route with the generated parser and
// report whether the typed JSON body was filled.
var parsers = map[string]func(*http.Response) (bool, error){
	RouteHealth: func(r *http.Response) (bool, error) {
		p, err := gen.ParseGetHealthResponse(r)
		return err == nil && p.JSON200 != nil, err
	},
	RouteOpenAPI: func(r *http.Response) (bool, error) {
		p, err := gen.ParseGetOpenAPIDocumentResponse(r)
		return err == nil && p.JSON200 != nil, err
	},
	RouteCurrentUser: func(r *http.Response) (bool, error) {
		p, err := gen.ParseGetCurrentUserResponse(r)
		return err == nil && p.JSON200 != nil, err
	},
	RouteDAGs: func(r *http.Response) (bool, error) {
		p, err := gen.ParseListDAGsResponse(r)
		return err == nil && p.JSON200 != nil, err
	},
	RouteDAG: func(r *http.Response) (bool, error) {
		p, err := gen.ParseGetDAGResponse(r)
		return err == nil && p.JSON200 != nil, err
	},
	RouteDAGSpec: func(r *http.Response) (bool, error) {
		p, err := gen.ParseGetDAGSpecResponse(r)
		return err == nil && p.JSON200 != nil, err
	},
	RouteSearchDAGs: func(r *http.Response) (bool, error) {
		p, err := gen.ParseSearchDAGsResponse(r)
		return err == nil && p.JSON200 != nil, err
	},
	RouteSearchDAGMatches: func(r *http.Response) (bool, error) {
		p, err := gen.ParseSearchDAGMatchesResponse(r)
		return err == nil && p.JSON200 != nil, err
	},
	RouteWiki: func(r *http.Response) (bool, error) {
		p, err := gen.ParseListWikiPagesResponse(r)
		return err == nil && p.JSON200 != nil, err
	},
	RouteWikiPage: func(r *http.Response) (bool, error) {
		p, err := gen.ParseGetWikiPageResponse(r)
		return err == nil && p.JSON200 != nil, err
	},
	RouteSearchWiki: func(r *http.Response) (bool, error) {
		p, err := gen.ParseSearchWikiPagesResponse(r)
		return err == nil && p.JSON200 != nil, err
	},
	RouteRuns: func(r *http.Response) (bool, error) {
		p, err := gen.ParseListDAGRunsResponse(r)
		return err == nil && p.JSON200 != nil, err
	},
	RouteRun: func(r *http.Response) (bool, error) {
		p, err := gen.ParseGetDAGRunResponse(r)
		return err == nil && p.JSON200 != nil, err
	},
	RouteRunLog: func(r *http.Response) (bool, error) {
		p, err := gen.ParseGetDAGRunLogResponse(r)
		return err == nil && p.JSON200 != nil, err
	},
	RouteStepLog: func(r *http.Response) (bool, error) {
		p, err := gen.ParseGetDAGRunStepLogResponse(r)
		return err == nil && p.JSON200 != nil, err
	},
	RouteSubRuns: func(r *http.Response) (bool, error) {
		p, err := gen.ParseListSubDAGRunsResponse(r)
		return err == nil && p.JSON200 != nil, err
	},
	RouteSubRun: func(r *http.Response) (bool, error) {
		p, err := gen.ParseGetSubDAGRunResponse(r)
		return err == nil && p.JSON200 != nil, err
	},
	RouteSubStepLog: func(r *http.Response) (bool, error) {
		p, err := gen.ParseGetSubDAGRunStepLogResponse(r)
		return err == nil && p.JSON200 != nil, err
	},
}

// TestFixturesDecode checks that every recorded 2xx JSON answer decodes into
// the generated response type of its route.
func TestFixturesDecode(t *testing.T) {
	t.Parallel()
	decoded := 0
	for name, fx := range loadFixtures(t) {
		if fx.Response.Status/100 != 2 || fx.Response.JSON == nil {
			continue
		}
		t.Run(name, func(t *testing.T) {
			route := routeOf(t, fx.Request.Path)
			parse, ok := parsers[route]
			if !ok {
				t.Fatalf("no parser for route %s", route)
			}
			filled, err := parse(fx.httpResponse())
			if err != nil || !filled {
				t.Fatalf("%s (%s): filled=%v err=%v", fx.Request.Path, route, filled, err)
			}
		})
		decoded++
	}
	if decoded < 50 {
		t.Fatalf("only %d 2xx fixtures decoded; testdata incomplete?", decoded)
	}
}

// TestFixturesKeyFieldsFilled checks that fields the mapping reads come out
// filled from the richest fixtures: a misspelt field name in openapi.yaml
// would decode without error but stay empty.
func TestFixturesKeyFieldsFilled(t *testing.T) {
	t.Parallel()
	fx := loadFixtures(t)
	var run gen.DAGRunDetailsResponse
	mustUnmarshal(t, fx["042-dag-runs-approval-job-0356UUns2Uzg25nn0kcIIt.json"].Response.JSON, &run)
	approval := findNode(run.DagRunDetails.Nodes, func(n gen.Node) bool { return n.Step.Approval != nil })
	if approval == nil || approval.Step.Approval.Prompt == nil || len(approval.Step.Approval.Input) == 0 {
		t.Fatalf("approval step not decoded: %+v", approval)
	}
	mustUnmarshal(t, fx["041-dag-runs-human-task-job-0356UUnhJiL9K5KSXR0NTa.json"].Response.JSON, &run)
	human := findNode(run.DagRunDetails.Nodes, func(n gen.Node) bool { return n.Step.HumanTask != nil })
	if human == nil || human.Step.HumanTask.Prompt == "" || human.Step.HumanTask.Form == nil {
		t.Fatalf("human task not decoded: %+v", human)
	}
	mustUnmarshal(t, fx["040-dag-runs-foreach-job-0356UUnVEGj0qj7EkXG3Be.json"].Response.JSON, &run)
	each := findNode(run.DagRunDetails.Nodes, func(n gen.Node) bool {
		return n.Step.ExecutorConfig != nil && n.Step.ExecutorConfig.Type != nil && *n.Step.ExecutorConfig.Type == "foreach"
	})
	if each == nil || each.Status == 0 || each.StatusLabel == "" || each.StartedAt == "" {
		t.Fatalf("foreach step not decoded: %+v", each)
	}
	var sub gen.SubDAGRunsResponse
	mustUnmarshal(t, fx["039-dag-runs-parent-job-0356UUnJXB5Ffd1qyncWee-sub-dag-runs.json"].Response.JSON, &sub)
	if len(sub.SubRuns) == 0 || sub.SubRuns[0].DagRunId == "" || sub.SubRuns[0].StatusLabel == "" {
		t.Fatalf("sub-runs not decoded: %+v", sub)
	}
	var log gen.Log
	mustUnmarshal(t, fx["051-dag-runs-big-log-job-0356UUo2lMk0yUwBDR9c0n-steps-spew-log.json"].Response.JSON, &log)
	if log.LineCount == nil || log.TotalLines == nil || log.HasMore == nil || log.IsEstimate == nil || log.Content == "" {
		t.Fatalf("log window not decoded: %+v", log)
	}
}

func findNode(nodes []gen.Node, pred func(gen.Node) bool) *gen.Node {
	for i := range nodes {
		if pred(nodes[i]) {
			return &nodes[i]
		}
	}
	return nil
}

func mustUnmarshal(t *testing.T, raw []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(raw, v); err != nil {
		t.Fatal(err)
	}
}
