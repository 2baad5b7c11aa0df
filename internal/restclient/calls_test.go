// SPDX-License-Identifier: Apache-2.0

package restclient

import (
	"context"
	"net/http"
	"net/url"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/restclient/gen"
)

// fixtureServer answers each request with the fixture recorded for the
// same path and query (query keys compared order-independently).
func fixtureServer(t *testing.T) string {
	t.Helper()
	byRequest := map[string]fixture{}
	for _, fx := range loadFixtures(t) {
		if fx.Request.Auth == "rest_api key" {
			byRequest[canonicalRequest(t, fx.Request.Path)] = fx
		}
	}
	srv, _ := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		fx, ok := byRequest[canonicalRequest(t, r.URL.RequestURI())]
		if !ok {
			http.Error(w, "404 page not found", http.StatusNotFound)
			return
		}
		serveFixture(fx)(w, r)
	})
	return srv.URL
}

func canonicalRequest(t *testing.T, requestURI string) string {
	u, err := url.Parse(requestURI)
	if err != nil {
		t.Fatal(err)
	}
	return u.EscapedPath() + "?" + u.Query().Encode()
}

// TestHelpersAgainstFixtures drives every helper over real recorded answers.
func TestHelpersAgainstFixtures(t *testing.T) {
	t.Parallel()
	c := newTestClient(t, fixtureServer(t), nil)
	ctx := context.Background()
	one, three, two, zero := 1, 3, 2, int64(0)
	q := "echo"
	flat := true
	prefix := "runbooks"
	failing := gen.StatusFilter{2}
	tests := []struct {
		name string
		call func() (bool, error)
	}{
		{"health", func() (bool, error) { h, err := c.Health(ctx); return err == nil && h.Version == "0.0.0", err }},
		{"current user", func() (bool, error) { u, err := c.CurrentUser(ctx); return err == nil && u.Role == "viewer", err }},
		{"dags page", func() (bool, error) {
			r, err := c.ListDAGs(ctx, gen.ListDAGsParams{Page: &one, PerPage: &three})
			return err == nil && len(r.Dags) == 3 && r.Pagination.CurrentPage == 1, err
		}},
		{"dag", func() (bool, error) {
			r, err := c.GetDAG(ctx, "mcp_read_contract")
			return err == nil && r.LatestDAGRun.DagRunId != "", err
		}},
		{"dotted dag name", func() (bool, error) { _, err := c.GetDAG(ctx, "mcp.read-contract"); return err == nil, err }},
		{"dag spec", func() (bool, error) {
			r, err := c.GetDAGSpec(ctx, "failing_job")
			return err == nil && r.Spec != "", err
		}},
		{"dag search", func() (bool, error) {
			r, err := c.SearchDAGs(ctx, gen.SearchDAGsParams{Q: q, Limit: &two})
			return err == nil && r.NextCursor != nil && len(r.Results) > 0, err
		}},
		{"dag matches", func() (bool, error) {
			r, err := c.SearchDAGMatches(ctx, "failing_job", gen.SearchDAGMatchesParams{Q: q})
			return err == nil && len(r.Matches) > 0, err
		}},
		{"wiki flat with prefix", func() (bool, error) {
			r, err := c.ListWiki(ctx, gen.ListWikiPagesParams{Prefix: &prefix, Flat: &flat})
			return err == nil && len(r.Items) > 0, err
		}},
		{"wiki page", func() (bool, error) {
			r, err := c.GetWikiPage(ctx, "ops", "oncall/handbook")
			return err == nil && r.Content != "", err
		}},
		{"wiki search", func() (bool, error) {
			r, err := c.SearchWiki(ctx, gen.SearchWikiPagesParams{Q: "failing"})
			return err == nil && len(r.Results) > 0, err
		}},
		{"failed runs", func() (bool, error) {
			r, err := c.ListRuns(ctx, gen.ListDAGRunsParams{Status: failing, FromDate: &zero})
			return err == nil && len(r.DagRuns) > 0 && r.DagRuns[0].Status == 2, err
		}},
		{"latest run", func() (bool, error) {
			r, err := c.GetRun(ctx, RunRef{Name: "mcp_read_contract", RunID: "latest"})
			return err == nil && r.DagRunId != "latest" && len(r.Nodes) > 0, err
		}},
		{"sub-run", func() (bool, error) {
			r, err := c.GetRun(ctx, RunRef{Name: "parent_job", RunID: "0356UUnJXB5Ffd1qyncWee", SubRunID: "91BtJYkQW1SsskLaa43ZUyKwazXZNeYsWuDL4EC3BKCg"})
			return err == nil && r.ParentDAGRunId != nil, err
		}},
		{"sub-run list", func() (bool, error) {
			r, err := c.ListSubRuns(ctx, RunRef{Name: "parent_job", RunID: "0356UUnJXB5Ffd1qyncWee"})
			return err == nil && len(r) == 1, err
		}},
		{"run log tail", func() (bool, error) {
			r, err := c.GetRunLog(ctx, RunRef{Name: "failing_job", RunID: "0356UUn8VwcWFuh5L8qwbp"}, LogWindow{Tail: 5})
			return err == nil && r.Content != "", err
		}},
		{"step log offset and limit", func() (bool, error) {
			r, err := c.GetStepLog(ctx, StepRef{Run: RunRef{Name: "big_log_job", RunID: "0356UUo2lMk0yUwBDR9c0n"}, Step: "spew"}, gen.StreamStdout, LogWindow{Offset: 100, Limit: 3})
			return err == nil && r.LineCount != nil && *r.LineCount == 3, err
		}},
		{"sub-run step log", func() (bool, error) {
			ref := RunRef{Name: "parent_job", RunID: "0356UUnJXB5Ffd1qyncWee", SubRunID: "91BtJYkQW1SsskLaa43ZUyKwazXZNeYsWuDL4EC3BKCg"}
			r, err := c.GetStepLog(ctx, StepRef{Run: ref, Step: "child_start"}, gen.StreamStdout, LogWindow{})
			return err == nil && r.Content != "", err
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ok, err := tt.call()
			if !ok {
				t.Fatalf("unexpected answer (err %v)", err)
			}
		})
	}
}

func TestHelpersReportMissingThings(t *testing.T) {
	t.Parallel()
	c := newTestClient(t, fixtureServer(t), nil)
	ctx := context.Background()
	tests := []struct {
		name         string
		call         func() error
		status       int
		routeMissing bool
	}{
		{"missing run", func() error {
			_, err := c.GetRun(ctx, RunRef{Name: "mcp_read_contract", RunID: "no_such_run"})
			return err
		}, 404, false},
		{"missing step", func() error {
			_, err := c.GetStepLog(ctx, StepRef{Run: RunRef{Name: "failing_job", RunID: "0356UUn8VwcWFuh5L8qwbp"}, Step: "no_such_step"}, gen.StreamStdout, LogWindow{})
			return err
		}, 404, false},
		{"foreach route on an older server", func() error {
			_, err := c.ListForeachItems(ctx, RunRef{Name: "foreach_job", RunID: "0356UUnVEGj0qj7EkXG3Be"}, "each", ForeachQuery{})
			return err
		}, 404, true},
		{"bad file name", func() error { _, err := c.GetDAG(ctx, "bad name"); return err }, 400, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.call()
			if !IsStatus(err, tt.status) || IsRouteMissing(err) != tt.routeMissing {
				t.Fatalf("err = %v, want HTTP %d (route missing %v)", err, tt.status, tt.routeMissing)
			}
		})
	}
}

func TestDownloadStepLogLimit(t *testing.T) {
	t.Parallel()
	const log = "line one\nline two\n"
	srv, rec := newServer(t, func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		_, _ = w.Write([]byte(log))
	})
	c := newTestClient(t, srv.URL, nil)
	ref := RunRef{Name: "foreach_job", RunID: "r1"}
	tests := []struct {
		limit int64
		want  string
	}{
		{0, ""},
		{int64(len(log)), ""},
		{int64(len(log)) - 1, "too_large"},
	}
	for _, tt := range tests {
		got, err := c.DownloadStepLog(context.Background(), ref, "each", gen.StreamStdout, tt.limit)
		if kindOf(err) != tt.want || (tt.want == "" && string(got) != log) {
			t.Errorf("limit %d: %q, %v", tt.limit, got, err)
		}
	}
	if q := rec.all()[0].RawQuery; q != "stream=stdout" {
		t.Errorf("query = %q", q)
	}
}
