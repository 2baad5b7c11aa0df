// SPDX-License-Identifier: Apache-2.0

package upstream

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu/fakedagutest"
	"github.com/dagu-mcp-gateway/gateway/internal/model"
)

func TestDAGReadsNameTheMissingDAG(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		read func(context.Context, *Adapter) error
	}{
		{"dag", func(ctx context.Context, a *Adapter) error { return ignore(a.GetDAG(ctx, "no_such_dag")) }},
		{"dag spec", func(ctx context.Context, a *Adapter) error { return ignore(a.GetDAGSpec(ctx, "no_such_dag")) }},
		{"invalid dag name", func(ctx context.Context, a *Adapter) error { return ignore(a.GetDAG(ctx, "bad name")) }},
	}
	env := newAdapterEnv(t, envOptions{})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if e := errorOf(t, tt.read(context.Background(), env.adapter)); e.Field != model.FieldName {
				t.Errorf("error %+v, want field name", e)
			}
		})
	}
}

func TestSpecCache(t *testing.T) {
	t.Parallel()
	env := newAdapterEnv(t, envOptions{noAuth: true, detect: true, adapter: func(o *AdapterOptions) { o.DAGCacheTTL = DefaultDAGCacheTTL }})
	keyA, keyB := "dagu_key_a", "dagu_key_b"
	ctx := context.Background()
	steps := []struct {
		key       string
		wantCalls int
	}{
		{keyA, 1}, // miss
		{keyA, 0}, // hit
		{keyB, 1}, // another key never sees key A's entry
		{keyB, 0},
		{keyA, 0}, // key A's entry is still there
	}
	for i, s := range steps {
		env.key.set(s.key)
		calls := env.calls(func() {
			spec, err := env.adapter.GetDAGSpec(ctx, "mcp_read_contract")
			if err != nil || spec.Spec == "" || spec.Name != "mcp_read_contract" {
				t.Fatalf("step %d: %+v, %v", i, spec, err)
			}
			spec.Errors = append(spec.Errors, "changed by the caller")
		})
		if len(calls) != s.wantCalls {
			t.Errorf("step %d (key %s): calls %q, want %d", i, s.key, calls, s.wantCalls)
		}
	}
	again, err := env.adapter.GetDAGSpec(ctx, "mcp_read_contract")
	if err != nil || slices.Contains(again.Errors, "changed by the caller") {
		t.Errorf("a caller changed the cached spec: %+v, %v", again, err)
	}
}

func TestCachesCanBeDisabledAndErrorsAreNotCached(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name                      string
		ttl                       time.Duration
		dag                       string
		wantSpecCalls, wantLister int
	}{
		{"disabled", 0, "mcp_read_contract", 2, 2},
		{"errors are not cached", DefaultDAGCacheTTL, "no_such_dag", 2, 1},
		{"enabled", DefaultDAGCacheTTL, "mcp_read_contract", 1, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := newAdapterEnv(t, envOptions{adapter: func(o *AdapterOptions) { o.DAGCacheTTL = tt.ttl }})
			calls := env.calls(func() {
				for range 2 {
					_, _ = env.adapter.GetDAGSpec(context.Background(), tt.dag)
					_, _ = env.adapter.DAGNames(context.Background())
				}
			})
			specCalls, listCalls := 0, 0
			for _, c := range calls {
				switch {
				case strings.HasSuffix(c, "/spec"):
					specCalls++
				case strings.HasPrefix(c, "/dags?"):
					listCalls++
				}
			}
			if specCalls != tt.wantSpecCalls || listCalls != tt.wantLister {
				t.Errorf("calls %q, want %d spec and %d list calls", calls, tt.wantSpecCalls, tt.wantLister)
			}
		})
	}
}

// TestDAGNamesPaging serves synthetic pages: the adapter reads until the
// last page, but never more than namesMaxPages.
func TestDAGNamesPaging(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		pages     int
		wantCalls int
	}{
		{"one page", 1, 1},
		{"three pages", 3, 3},
		{"capped", 50, namesMaxPages},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := newAdapterEnv(t, envOptions{})
			var served atomic.Int32 // pages after the first are read together
			env.setIntercept(func(w http.ResponseWriter, r *http.Request) bool {
				if r.URL.Path != "/api/v1/dags" {
					return false
				}
				served.Add(1)
				page, _ := strconv.Atoi(r.URL.Query().Get("page"))
				return answerJSON(w, http.StatusOK, dagPage(page, tt.pages))
			})
			names, err := env.adapter.DAGNames(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if int(served.Load()) != tt.wantCalls || len(names) != tt.wantCalls || names[0] != "dag_1" {
				t.Errorf("served %d pages, names %q", served.Load(), names)
			}
		})
	}
}

// dagPage is page `page` of `total` one-DAG pages of GET /dags.
func dagPage(page, total int) string {
	body := map[string]any{
		"dags": []any{map[string]any{
			"fileName": fmt.Sprintf("dag_%d", page), "dag": map[string]any{"name": "x"},
			"latestDAGRun": map[string]any{"dagRunId": "", "name": "x", "status": 0, "statusLabel": "not_started", "autoRetryCount": 0, "startedAt": "", "finishedAt": "", "artifactsAvailable": false},
			"suspended":    false, "errors": []string{},
		}},
		"errors":     []string{},
		"pagination": map[string]int{"totalRecords": total, "currentPage": page, "totalPages": total, "nextPage": min(page+1, total), "prevPage": max(page-1, 1)},
	}
	raw, _ := json.Marshal(body)
	return string(raw)
}

func TestSearchBlamesTheRightInput(t *testing.T) {
	t.Parallel()
	notFound := func(w http.ResponseWriter, r *http.Request) bool {
		return strings.HasPrefix(r.URL.Path, "/api/v1/search/") && answerJSON(w, http.StatusNotFound, `{"code":"not_found","message":"Resource not found"}`)
	}
	// Dagu's 400 for a workspace name it refuses (a reserved or malformed
	// name); the blame comes from the request, never from this text.
	badRequest := func(w http.ResponseWriter, r *http.Request) bool {
		return answerJSON(w, http.StatusBadRequest, `{"code":"bad_request","message":"invalid request"}`)
	}
	tests := []struct {
		name      string
		intercept interceptor
		read      func(context.Context, *Adapter) error
		wantField string
	}{
		{"dag search cursor", nil, func(ctx context.Context, a *Adapter) error {
			return ignore(a.SearchDAGs(ctx, model.DAGSearchQuery{Search: "echo", Cursor: "garbage"}))
		}, model.FieldCursor},
		{"wiki search cursor", nil, func(ctx context.Context, a *Adapter) error {
			return ignore(a.SearchWiki(ctx, model.WikiSearchQuery{Search: "the", Workspace: "all", Cursor: "garbage"}))
		}, model.FieldCursor},
		{"dag search workspace", notFound, func(ctx context.Context, a *Adapter) error {
			return ignore(a.SearchDAGs(ctx, model.DAGSearchQuery{Search: "echo", Workspace: "nope"}))
		}, model.FieldWorkspace},
		{"wiki search workspace", notFound, func(ctx context.Context, a *Adapter) error {
			return ignore(a.SearchWiki(ctx, model.WikiSearchQuery{Search: "echo", Workspace: "nope"}))
		}, model.FieldWorkspace},
		{"wiki page", nil, func(ctx context.Context, a *Adapter) error {
			return ignore(a.GetWikiPage(ctx, "default", "nope/missing"))
		}, model.FieldPath},
		{"wiki prefix", nil, func(ctx context.Context, a *Adapter) error {
			return ignore(a.ListWiki(ctx, model.WikiListQuery{Workspace: "all", Prefix: "bad//prefix"}))
		}, model.FieldPrefix},
		{"wiki page in a refused workspace", badRequest, func(ctx context.Context, a *Adapter) error {
			return ignore(a.GetWikiPage(ctx, "Default", "runbooks/deploy"))
		}, model.FieldWorkspace},
		{"wiki page refused without a workspace", badRequest, func(ctx context.Context, a *Adapter) error {
			return ignore(a.GetWikiPage(ctx, "", "runbooks/deploy"))
		}, model.FieldPath},
		{"wiki list in a refused workspace", badRequest, func(ctx context.Context, a *Adapter) error {
			return ignore(a.ListWiki(ctx, model.WikiListQuery{Workspace: "Default", Prefix: "runbooks"}))
		}, model.FieldWorkspace},
		{"wiki search in a refused workspace", badRequest, func(ctx context.Context, a *Adapter) error {
			return ignore(a.SearchWiki(ctx, model.WikiSearchQuery{Search: "x", Workspace: "Default", Prefix: "runbooks"}))
		}, model.FieldWorkspace},
		{"wiki search prefix refused", badRequest, func(ctx context.Context, a *Adapter) error {
			return ignore(a.SearchWiki(ctx, model.WikiSearchQuery{Search: "x", Workspace: "all", Prefix: "runbooks"}))
		}, model.FieldPrefix},
		{"dag search in a refused workspace", badRequest, func(ctx context.Context, a *Adapter) error {
			return ignore(a.SearchDAGs(ctx, model.DAGSearchQuery{Search: "x", Workspace: "Default"}))
		}, model.FieldWorkspace},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := newAdapterEnv(t, envOptions{})
			env.setIntercept(tt.intercept)
			if e := errorOf(t, tt.read(context.Background(), env.adapter)); e.Field != tt.wantField || e.Kind != model.FailureHTTP {
				t.Errorf("error %+v, want field %s", e, tt.wantField)
			}
		})
	}
}

func TestWikiModesAnswerArrays(t *testing.T) {
	t.Parallel()
	for _, flat := range []bool{false, true} {
		env := newAdapterEnv(t, envOptions{})
		env.setIntercept(func(w http.ResponseWriter, r *http.Request) bool {
			return r.URL.Path == "/api/v1/wiki" && answerJSON(w, http.StatusOK,
				`{"pagination":{"totalRecords":0,"currentPage":1,"totalPages":1,"nextPage":1,"prevPage":1}}`)
		})
		got, err := env.adapter.ListWiki(context.Background(), model.WikiListQuery{Workspace: "all", Flat: flat})
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := json.Marshal(got)
		want := `"tree":[]`
		if flat {
			want = `"items":[]`
		}
		if !strings.Contains(string(raw), want) {
			t.Errorf("flat %v: %s lacks %s", flat, raw, want)
		}
	}
}

func TestWikiDisabled(t *testing.T) {
	t.Parallel()
	reads := []struct {
		name string
		read func(context.Context, *Adapter) error
	}{
		{"wiki", func(ctx context.Context, a *Adapter) error {
			return ignore(a.ListWiki(ctx, model.WikiListQuery{Workspace: "all"}))
		}},
		{"wiki page", func(ctx context.Context, a *Adapter) error {
			return ignore(a.GetWikiPage(ctx, "default", "runbooks/nightly-export"))
		}},
		{"wiki search", func(ctx context.Context, a *Adapter) error {
			return ignore(a.SearchWiki(ctx, model.WikiSearchQuery{Search: "x", Workspace: "all"}))
		}},
	}
	disabled := newAdapterEnv(t, envOptions{fake: fakedagu.Options{WikiDisabled: true}})
	surface := newAdapterEnv(t, envOptions{fake: fakedagu.Options{MCPOnlyKey: fakedagutest.MCPOnlyKey}})
	surface.key.set(fakedagutest.MCPOnlyKey)
	for _, r := range reads {
		t.Run(r.name, func(t *testing.T) {
			if e := errorOf(t, r.read(context.Background(), disabled.adapter)); e.Kind != model.FailureUnsupported || e.Reason != model.ReasonWikiDisabled {
				t.Errorf("wiki disabled: %+v", e)
			}
			if e := errorOf(t, r.read(context.Background(), surface.adapter)); e.Kind != model.FailureHTTP || !e.SurfaceDenied {
				t.Errorf("surface denied must stay a 403: %+v", e)
			}
		})
	}
	if _, err := disabled.adapter.ListDAGs(context.Background(), model.DAGListQuery{}); err != nil {
		t.Errorf("other targets are affected: %v", err)
	}
}
