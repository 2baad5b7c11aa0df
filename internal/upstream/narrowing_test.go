// SPDX-License-Identifier: Apache-2.0

package upstream

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
	"github.com/dagu-mcp-gateway/gateway/internal/model"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient"
)

// TestNarrowsGrantIsTheFailureTablesWord: only Dagu's 403 and a
// handler's 404 (with Dagu's error code) say that the credential may no
// longer see what a read named; a router's 404, any other status, a
// failure the gateway built and a transport failure never do, whatever
// the message says.
func TestNarrowsGrantIsTheFailureTablesWord(t *testing.T) {
	t.Parallel()
	notFound := &restclient.Error{Route: restclient.RouteDAG, Status: http.StatusNotFound, Code: "not_found"}
	for _, c := range []struct {
		name string
		err  error
		want bool
	}{
		{"403", &restclient.Error{Status: http.StatusForbidden, Code: "forbidden"}, true},
		{"403 without a code", &restclient.Error{Status: http.StatusForbidden}, true},
		{"handler 404", notFound, true},
		{"handler 404 translated and blamed", withField(notFound, model.FieldName), true},
		{"handler 404 wrapped", fmt.Errorf("read: %w", notFound), true},
		{"router 404 (route missing)", &restclient.Error{Status: http.StatusNotFound}, false},
		{"401", &restclient.Error{Status: http.StatusUnauthorized, Code: "unauthorized"}, false},
		{"1.x 500 with code not_found", &restclient.Error{Status: http.StatusInternalServerError, Code: "not_found"}, false},
		{"1.x 500 read as 404 by code", notFoundByCode(&restclient.Error{Status: http.StatusInternalServerError, Code: "not_found"}), false},
		{"400", &restclient.Error{Status: http.StatusBadRequest, Code: "bad_request", Excerpt: "not found"}, false},
		{"a lookup the gateway made", notFound404Lookup(), false},
		{"network, message says 404 forbidden", &restclient.Error{Excerpt: "404 forbidden not_found"}, false},
		{"timeout", &restclient.Error{Timeout: true}, false},
		{"plain error saying 403", errors.New("dagu: 403 forbidden"), false},
		{"nil", nil, false},
	} {
		if got := narrowsGrant(c.err); got != c.want {
			t.Errorf("%s: narrowsGrant %v, want %v", c.name, got, c.want)
		}
		if c.err != nil {
			// the table's other column is unchanged: an HTTP answer is
			// still an HTTP failure
			if re, ok := restclient.AsError(c.err); ok && re.Status != 0 {
				if f, ok := model.AsFailure(failureOf(re)); !ok || f.Kind != model.FailureHTTP || f.Status != re.Status {
					t.Errorf("%s: failureOf %v", c.name, failureOf(re))
				}
			}
		}
	}
}

func notFound404Lookup() error {
	return notFound(restclient.RouteDAG, model.FieldName, "")
}

// narrowedAnswer is how the intercept answers a read after the
// narrowing: a status and, for a handler's answer, Dagu's error body.
type narrowedAnswer struct {
	status int
	code   string // "" : a router's 404, no body
}

// TestRefusalOfAnythingShownDropsTheCredential: in passthrough, a key
// reads a finished run (cached) and other points; then Dagu refuses
// (403) or does not find (404) one point. When Dagu showed the key that
// point before (a DAG whose run, spec or details it read, a wiki page,
// a named workspace), the key's cached answers are dropped and its
// caches closed until Dagu confirms its grant again; a point never shown
// (a mistyped name), a router's 404 or another status drops nothing.
func TestRefusalOfAnythingShownDropsTheCredential(t *testing.T) {
	t.Parallel()
	run := runOf("failing_job", failingRun)
	readRun := func(ctx context.Context, a *Adapter) error { return ignore(a.GetRun(ctx, run)) }
	cases := []struct {
		name string
		// shown are the reads before the narrowing (after the run's)
		shown []func(ctx context.Context, a *Adapter) error
		// refuse answers paths holding this after the narrowing
		refuse string
		answer narrowedAnswer
		// read is the read Dagu refuses
		read func(ctx context.Context, a *Adapter) error
		drop bool
	}{
		{name: "spec 404 of a DAG whose run was read", refuse: "/dags/failing_job",
			answer: narrowedAnswer{http.StatusNotFound, "not_found"},
			read:   func(ctx context.Context, a *Adapter) error { return ignore(a.GetDAGSpec(ctx, "failing_job")) }, drop: true},
		{name: "details 404 of a DAG whose run was read", refuse: "/dags/failing_job",
			answer: narrowedAnswer{http.StatusNotFound, "not_found"},
			read:   func(ctx context.Context, a *Adapter) error { return ignore(a.GetDAG(ctx, "failing_job")) }, drop: true},
		{name: "details 403 of a DAG whose run was read", refuse: "/dags/failing_job",
			answer: narrowedAnswer{http.StatusForbidden, "forbidden"},
			read:   func(ctx context.Context, a *Adapter) error { return ignore(a.GetDAG(ctx, "failing_job")) }, drop: true},
		{name: "details 404 of a DAG whose spec was read",
			shown:  []func(ctx context.Context, a *Adapter) error{func(ctx context.Context, a *Adapter) error { return ignore(a.GetDAGSpec(ctx, "mcp_read_contract")) }},
			refuse: "/dags/mcp_read_contract", answer: narrowedAnswer{http.StatusNotFound, "not_found"},
			read: func(ctx context.Context, a *Adapter) error { return ignore(a.GetDAG(ctx, "mcp_read_contract")) }, drop: true},
		{name: "wiki page 404 of a page read before",
			shown: []func(ctx context.Context, a *Adapter) error{func(ctx context.Context, a *Adapter) error {
				return ignore(a.GetWikiPage(ctx, "ops", "oncall/handbook"))
			}},
			refuse: "/wiki/page", answer: narrowedAnswer{http.StatusNotFound, "not_found"},
			read: func(ctx context.Context, a *Adapter) error {
				return ignore(a.GetWikiPage(ctx, "ops", "oncall/handbook"))
			}, drop: true},
		{name: "wiki list 404 of a workspace listed before",
			shown: []func(ctx context.Context, a *Adapter) error{func(ctx context.Context, a *Adapter) error {
				return ignore(a.ListWiki(ctx, model.WikiListQuery{Workspace: "ops"}))
			}},
			refuse: "/wiki", answer: narrowedAnswer{http.StatusNotFound, "not_found"},
			read: func(ctx context.Context, a *Adapter) error {
				return ignore(a.ListWiki(ctx, model.WikiListQuery{Workspace: "ops"}))
			}, drop: true},
		{name: "404 of a run never read, of a DAG shown (a mistyped run ID)", refuse: "/dag-runs/failing_job",
			answer: narrowedAnswer{http.StatusNotFound, "not_found"},
			read: func(ctx context.Context, a *Adapter) error {
				return ignore(a.GetRun(ctx, runOf("failing_job", "0356UUn8VwcWFuh5L8qwbX")))
			}, drop: false},
		{name: "spec 404 of a DAG never shown (a mistyped name)", refuse: "/dags/failing_jbo",
			answer: narrowedAnswer{http.StatusNotFound, "not_found"},
			read:   func(ctx context.Context, a *Adapter) error { return ignore(a.GetDAGSpec(ctx, "failing_jbo")) }, drop: false},
		{name: "wiki page 404 of a page never read in a workspace listed before",
			shown: []func(ctx context.Context, a *Adapter) error{func(ctx context.Context, a *Adapter) error {
				return ignore(a.ListWiki(ctx, model.WikiListQuery{Workspace: "ops"}))
			}},
			refuse: "/wiki/page", answer: narrowedAnswer{http.StatusNotFound, "not_found"},
			read: func(ctx context.Context, a *Adapter) error {
				return ignore(a.GetWikiPage(ctx, "ops", "oncall/missing"))
			}, drop: false},
		{name: "router 404 on a DAG whose run was read", refuse: "/dags/failing_job",
			answer: narrowedAnswer{http.StatusNotFound, ""},
			read:   func(ctx context.Context, a *Adapter) error { return ignore(a.GetDAGSpec(ctx, "failing_job")) }, drop: false},
		{name: "500 on a DAG whose run was read", refuse: "/dags/failing_job",
			answer: narrowedAnswer{http.StatusInternalServerError, "internal_error"},
			read:   func(ctx context.Context, a *Adapter) error { return ignore(a.GetDAGSpec(ctx, "failing_job")) }, drop: false},
		{name: "400 on a DAG whose run was read", refuse: "/dags/failing_job",
			answer: narrowedAnswer{http.StatusBadRequest, "bad_request"},
			read:   func(ctx context.Context, a *Adapter) error { return ignore(a.GetDAGSpec(ctx, "failing_job")) }, drop: false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			env := newAdapterEnv(t, envOptions{fake: fakedagu.Options{}, detect: true, adapter: func(o *AdapterOptions) {
				withCaches(o)
				o.GrantRecheck = time.Minute
			}})
			ctx := context.Background()
			a := env.adapter
			cred := env.client.Fingerprint(ctx)
			a.grants.confirm(ctx, cred, "e1")
			for _, read := range append([]func(context.Context, *Adapter) error{readRun}, c.shown...) {
				if err := read(ctx, a); err != nil {
					t.Fatalf("before the narrowing: %v", err)
				}
			}
			if calls := env.calls(func() { _ = readRun(ctx, a) }); len(calls) != 0 {
				t.Fatalf("the run is not served from the cache before the narrowing: %q", calls)
			}
			env.setIntercept(func(w http.ResponseWriter, r *http.Request) bool {
				if !strings.Contains(r.URL.Path, c.refuse) || c.refuse == "/wiki" && r.URL.Path != "/api/v1/wiki" {
					return false
				}
				if c.answer.code == "" {
					http.NotFound(w, r)
					return true
				}
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(c.answer.status)
				_, _ = io.WriteString(w, `{"code":"`+c.answer.code+`","message":"Resource not found"}`)
				return true
			})
			if err := c.read(ctx, a); err == nil {
				t.Fatal("the refused read succeeded: the intercept missed it")
			}
			env.setIntercept(nil)
			_, held := a.runs.store.peekDetails(a.runs.key(ctx, restclient.RunRef{Name: run.Name, RunID: run.DAGRunID}))
			usable := a.grants.usable(ctx, cred)
			if held == c.drop || usable == c.drop {
				t.Errorf("run still held %v, caches open %v; want dropped %v", held, usable, c.drop)
			}
			if c.drop {
				if calls := env.calls(func() { _ = readRun(ctx, a) }); len(calls) == 0 {
					t.Error("the run is still served from the cache after the refusal")
				}
			}
		})
	}
}

// TestServiceModeTiesNothingToRefusals: without a grant book (the
// gateway's own key), a 404 for a DAG whose run was read drops nothing.
func TestServiceModeTiesNothingToRefusals(t *testing.T) {
	t.Parallel()
	env := cachedEnv(t, fakedagu.Options{})
	ctx := context.Background()
	run := runOf("failing_job", failingRun)
	if _, err := env.adapter.GetRun(ctx, run); err != nil {
		t.Fatal(err)
	}
	env.setIntercept(func(w http.ResponseWriter, r *http.Request) bool {
		if !strings.Contains(r.URL.Path, "/dags/failing_job") {
			return false
		}
		w.WriteHeader(http.StatusNotFound)
		_, _ = io.WriteString(w, `{"code":"not_found","message":"x"}`)
		return true
	})
	_, _ = env.adapter.GetDAGSpec(ctx, "failing_job")
	env.setIntercept(nil)
	if calls := env.calls(func() { _, _ = env.adapter.GetRun(ctx, run) }); len(calls) != 0 {
		t.Errorf("service mode dropped the run on a 404: %q", calls)
	}
}
