// SPDX-License-Identifier: Apache-2.0

package restclient

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu/fakedagutest"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient/gen"
)

// Recorded on Dagu 1.17.4 (072-075): the parent run and its one sub-run.
const (
	parent117 = "01a233ce-e7be-7c42-900f-766080039ee9"
	child117  = "JAQe48QK738cpsBePzgDMNzaQj4WjS8yRiTm6wWK4brQ"
)

// replay117 serves Dagu 1.17.4's recorded answers by request path (with
// query) and a router-level 404 for anything not recorded.
func replay117(t *testing.T) *Client {
	t.Helper()
	recs, err := fakedagu.RecordingsOf(fakedagu.Profile117)
	if err != nil {
		t.Fatal(err)
	}
	byPath := map[string]fakedagu.Recording{}
	for _, r := range recs {
		if r.Request.Auth == "rest_api key" {
			byPath[r.Request.Path] = r
		}
	}
	srv, _ := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		rec, ok := byPath[r.URL.RequestURI()]
		if !ok {
			http.Error(w, "404 page not found", http.StatusNotFound)
			return
		}
		w.Header().Set("Content-Type", rec.Response.ContentType)
		w.WriteHeader(rec.Response.Status)
		_, _ = w.Write(rec.Body())
	})
	c := newTestClient(t, srv.URL, nil)
	c.SetAPIBase(APIv2)
	c.SetChildRoutes(true)
	return c
}

func TestChildCallsDecodeRecorded117(t *testing.T) {
	t.Parallel()
	c := replay117(t)
	ctx := context.Background()
	ref := RunRef{Name: "parent_job", RunID: parent117, SubRunID: child117}

	parent, err := c.GetRun(ctx, RunRef{Name: "parent_job", RunID: parent117})
	if err != nil {
		t.Fatal(err)
	}
	if got := parent.Nodes[1].Children; len(got) != 1 || got[0].DagRunId != child117 || got[0].DagName != nil {
		t.Errorf("parent's run_child children = %+v, want the one recorded sub-run without a DAG name", got)
	}

	d, err := c.GetRun(ctx, ref)
	if err != nil {
		t.Fatal(err)
	}
	if d.Name != "child_job" || d.DagRunId != child117 || len(d.Nodes) != 2 || d.RootDAGRunId != parent117 {
		t.Errorf("sub-run = %s/%s, %d nodes, root %s", d.Name, d.DagRunId, len(d.Nodes), d.RootDAGRunId)
	}

	log, err := c.GetRunLog(ctx, ref, LogWindow{})
	if err != nil {
		t.Fatal(err)
	}
	if deref(log.TotalLines) != 8 || !strings.Contains(log.Content, `msg="dag-run finished" dag=child_job`) {
		t.Errorf("scheduler log: %d lines: %.80s", deref(log.TotalLines), log.Content)
	}

	step, err := c.GetStepLog(ctx, StepRef{Run: ref, Step: "child_start"}, gen.StreamStdout, LogWindow{})
	if err != nil {
		t.Fatal(err)
	}
	if step.Content != "child 123" {
		t.Errorf("step log = %q, want the recorded %q", step.Content, "child 123")
	}

	_, err = c.GetRun(ctx, RunRef{Name: "parent_job", RunID: parent117, SubRunID: "no_such_sub"})
	if e, ok := AsError(err); !ok || !IsStatus(err, http.StatusNotFound) || IsRouteMissing(err) || e.Code != "not_found" || e.Route != RouteChildRun {
		t.Errorf("missing sub-run: %v, want the handler's 404 not_found on %s", err, RouteChildRun)
	}
}

// With the /children routes a sub-run has no spec or download route: the
// call is refused before anything is sent. Root runs keep their routes.
func TestChildRoutesFamily(t *testing.T) {
	t.Parallel()
	srv, rec := newServer(t, func(w http.ResponseWriter, _ *http.Request) { writeJSON(w, 200, `{}`) })
	c := newTestClient(t, srv.URL, nil)
	c.SetChildRoutes(true)
	ctx := context.Background()
	sub := RunRef{Name: "parent_job", RunID: parent117, SubRunID: child117}
	if got := c.RunRoutes(sub); got.Details != RouteChildRun || got.SchedulerLog != RouteChildRunLog || got.StepLog != RouteChildStepLog {
		t.Errorf("sub-run routes = %+v", got)
	}
	if got := c.RunRoutes(RunRef{Name: "parent_job", RunID: parent117}).Details; got != RouteRun {
		t.Errorf("root run details route = %s", got)
	}
	if _, err := c.GetRunSpec(ctx, sub); kindOf(err) != "refused" {
		t.Errorf("sub-run spec: %v, want refused", err)
	}
	if _, err := c.DownloadStepLog(ctx, sub, "child_start", gen.StreamStdout, 0); kindOf(err) != "refused" {
		t.Errorf("sub-run download: %v, want refused", err)
	}
	if n := len(rec.all()); n != 0 {
		t.Errorf("%d requests sent", n)
	}
	c.SetChildRoutes(false)
	if got := c.RunRoutes(sub).Details; got != RouteSubRun {
		t.Errorf("sub-run details route without /children = %s", got)
	}
}

// Detection finds the /children routes only on 1.17 and switches sub-run
// reads to them there; releases with /sub-dag-runs keep those. Step-log
// downloads exist from 2.0 on.
func TestDetectChildRoutes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		profile              fakedagu.Profile
		subRuns, childRuns   bool
		readsThroughChildren bool
		logDownloads         bool
	}{
		{fakedagu.ProfileCurrent, true, false, false, true},
		{fakedagu.Profile26, true, false, false, true},
		{fakedagu.Profile20, true, false, false, true},
		{fakedagu.Profile129, true, false, false, false},
		{fakedagu.Profile117, false, true, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.profile.String(), func(t *testing.T) {
			t.Parallel()
			_, base := fakedagutest.Start(t, fakedagu.Options{Profile: tt.profile, APIKey: fakedagutest.APIKey})
			c := newTestClient(t, base, func(cfg *Config) { cfg.Key = StaticKey(fakedagutest.APIKey) })
			caps, err := c.DetectCapabilities(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if caps.SubRuns != tt.subRuns || caps.ChildRuns != tt.childRuns || caps.Has("childRuns") != tt.childRuns {
				t.Errorf("subRuns %v childRuns %v, want %v %v", caps.SubRuns, caps.ChildRuns, tt.subRuns, tt.childRuns)
			}
			if caps.LogDownloads != tt.logDownloads {
				t.Errorf("logDownloads %v, want %v", caps.LogDownloads, tt.logDownloads)
			}
			if c.ChildRoutes() != tt.readsThroughChildren {
				t.Errorf("ChildRoutes() = %v, want %v", c.ChildRoutes(), tt.readsThroughChildren)
			}
		})
	}
}

// deref returns *p, or the zero value for nil.
func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}
