// SPDX-License-Identifier: Apache-2.0

package readtool

import (
	"fmt"
	"net/url"
	"reflect"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
)

// queryTargetArgs gives, per target with a query, the target-mode fields
// and the URI-mode URI the query is appended to.
var queryTargetArgs = map[string]struct{ fields, uri string }{
	tDAGs:         {``, "dagu://dags"},
	tRuns:         {``, "dagu://runs"},
	tWiki:         {``, "dagu://wiki"},
	tRunLogs:      {`,"name":"n","dagRunId":"r"`, "dagu://runs/n/r/logs"},
	tStepLog:      {`,"name":"n","dagRunId":"r","stepName":"s"`, "dagu://runs/n/r/steps/s/logs"},
	tForeachItems: {`,"name":"n","dagRunId":"r","stepName":"s"`, "dagu://runs/n/r/steps/s/foreach"},
}

// TestQueryValues checks every row of the contract's query value table,
// with accepted and refused values, in both addressing modes.
func TestQueryValues(t *testing.T) {
	t.Parallel()
	tests := []struct {
		target string
		query  string
		ok     bool
	}{
		{tDAGs, "page=1", true}, {tDAGs, "page=0", false}, {tDAGs, "page=x", false},
		{tDAGs, "perPage=1", true}, {tDAGs, "perPage=200", true}, {tDAGs, "perPage=201", false}, {tDAGs, "perPage=0", false},
		{tDAGs, "name=a", true}, {tDAGs, "name=", false}, {tDAGs, "name", false},
		{tDAGs, "labels=a,b", true}, {tDAGs, "labels=a,,b", false}, {tDAGs, "labels=a,", false},
		{tDAGs, "sort=name", true}, {tDAGs, "sort=nextRun", true}, {tDAGs, "sort=NAME", false},
		{tDAGs, "order=asc", true}, {tDAGs, "order=desc", true}, {tDAGs, "order=up", false},
		{tDAGs, "active=true", false}, {tDAGs, "page=1&page=2", false},
		{tRuns, "name=a", true}, {tRuns, "dagRunId=latest", true}, {tRuns, "dagRunId=", false},
		{tRuns, "status=0", true}, {tRuns, "status=8", true}, {tRuns, "status=9", false}, {tRuns, "status=-1", false},
		{tRuns, "status=2&status=3", true}, {tRuns, "status=1,2", false},
		{tRuns, "fromDate=0", true}, {tRuns, "fromDate=1767225600", true}, {tRuns, "fromDate=2026-01-01", false}, {tRuns, "toDate=-5", false},
		{tRuns, "limit=1", true}, {tRuns, "limit=500", true}, {tRuns, "limit=501", false},
		{tRuns, "cursor=abc", true}, {tRuns, "cursor=", false}, {tRuns, "labels=x", true},
		{tRuns, "limit=5&limit=6", false}, {tRuns, "tail=5", false},
		{tWiki, "page=2", true}, {tWiki, "perPage=200", true}, {tWiki, "perPage=300", false},
		{tWiki, "flat=true", true}, {tWiki, "flat=false", true}, {tWiki, "flat=1", false},
		{tWiki, "sort=mtime", true}, {tWiki, "sort=type", true}, {tWiki, "sort=size", false},
		{tWiki, "order=desc", true}, {tWiki, "prefix=runbooks", true}, {tWiki, "prefix=../x", false},
		{tRunLogs, "tail=1", true}, {tRunLogs, "tail=10000", true}, {tRunLogs, "tail=10001", false}, {tRunLogs, "head=5", false},
		{tStepLog, "tail=10", true}, {tStepLog, "head=10", true}, {tStepLog, "head=0", false},
		{tStepLog, "offset=1", true}, {tStepLog, "offset=0", false}, {tStepLog, "offset=5&limit=10", true},
		{tStepLog, "limit=10", true}, {tStepLog, "limit=10001", false},
		{tStepLog, "stream=stdout", true}, {tStepLog, "stream=stderr", true}, {tStepLog, "stream=both", false},
		{tStepLog, "tail=5&head=5", false}, {tStepLog, "tail=5&offset=2", false}, {tStepLog, "head=5&offset=2", false},
		{tStepLog, "tail=5&limit=2", false}, {tStepLog, "head=5&limit=2", false},
		{tStepLog, "tail=5&stream=stderr", true}, {tStepLog, "stream=stdout&stream=stderr", false},
		{tForeachItems, "parent=1.inner", true}, {tForeachItems, "status=failed", true}, {tForeachItems, "status=not_started", true},
		{tForeachItems, "status=skipped", false}, {tForeachItems, "page=1", true}, {tForeachItems, "perPage=500", true},
		{tForeachItems, "perPage=501", false}, {tForeachItems, "status=failed&status=running", false},
		{tDAGs, "page=%zz", false}, {tDAGs, "page=1;perPage=2", false}, {tRuns, "name=a+b", true},
		{tDAGs, "page=+3", true}, {tDAGs, "", true},
		// The lower bounds and empty values of the remaining rows.
		{tRuns, "name=", false}, {tRuns, "limit=0", false}, {tRuns, "labels=a,,b", false}, {tRuns, "toDate=x", false},
		{tWiki, "page=0", false}, {tWiki, "perPage=0", false}, {tWiki, "order=up", false}, {tWiki, "flat=", false},
		{tRunLogs, "tail=0", false}, {tStepLog, "tail=0", false}, {tStepLog, "tail=10001", false},
		{tStepLog, "head=10000", true}, {tStepLog, "head=10001", false}, {tStepLog, "limit=0", false},
		{tForeachItems, "page=0", false}, {tForeachItems, "perPage=0", false}, {tForeachItems, "parent=", false},
	}
	for _, tt := range tests {
		args := queryTargetArgs[tt.target]
		t.Run(fmt.Sprintf("target/%s/%s", tt.target, tt.query), func(t *testing.T) {
			t.Parallel()
			tool, _ := newStubTool(t)
			res := callJSON(t, tool, fmt.Sprintf(`{"target":%q%s,"query":%q}`, tt.target, args.fields, tt.query))
			if tt.ok {
				if res.IsError {
					t.Fatalf("refused: %+v", res.StructuredContent)
				}
				return
			}
			checkErr(t, errorOf(t, res), wantErr{code: CodeInvalidToolInput, field: fQuery, target: tt.target})
		})
		t.Run(fmt.Sprintf("uri/%s/%s", tt.target, tt.query), func(t *testing.T) {
			t.Parallel()
			tool, _ := newStubTool(t)
			uri := args.uri
			if tt.query != "" {
				uri += "?" + tt.query
			}
			res := callJSON(t, tool, fmt.Sprintf(`{"uri":%q}`, uri))
			if tt.ok {
				if res.IsError {
					t.Fatalf("refused: %+v", res.StructuredContent)
				}
				return
			}
			checkErr(t, errorOf(t, res), wantErr{code: CodeInvalidResourceURI, field: fURI, target: tt.target, uri: uri})
		})
	}
}

// TestQueryTranslation checks that validated parameters reach the upstream
// as typed values.
func TestQueryTranslation(t *testing.T) {
	t.Parallel()
	tool, up := newStubTool(t)
	res := callJSON(t, tool, `{"target":"runs","query":"status=2&status=3&fromDate=10&limit=7&labels=a, b&dagRunId=latest&name=x"}`)
	if res.IsError {
		t.Fatalf("refused: %+v", res.StructuredContent)
	}
	q := up.last().(model.RunListQuery)
	want := model.RunListQuery{Name: "x", DAGRunID: "latest", Status: []int{2, 3}, Limit: 7, Labels: []string{"a", "b"}}
	if q.FromDate == nil || *q.FromDate != 10 || q.ToDate != nil {
		t.Fatalf("dates = %v %v", q.FromDate, q.ToDate)
	}
	q.FromDate = nil
	if !reflect.DeepEqual(q, want) {
		t.Fatalf("upstream query = %+v, want %+v", q, want)
	}
}

func TestParseQueryTrimsValues(t *testing.T) {
	t.Parallel()
	parsed, problem := targets[tStepLog].reader.parse(tStepLog, "tail=%205%20")
	if problem != nil {
		t.Fatal(problem.message)
	}
	if got := parsed.(model.LogQuery).Tail; got != 5 {
		t.Fatalf("tail = %d", got)
	}
	if _, p := targets[tStepLog].reader.parse(tStepLog, url.Values{"tail": {" "}}.Encode()); p == nil {
		t.Fatal("blank value accepted")
	}
}

// TestQueryProblemNamesParameter pins the structured detail of a refused
// query: details.parameter names the parameter at fault in both modes, so a
// client can branch on it instead of parsing the message.
func TestQueryProblemNamesParameter(t *testing.T) {
	t.Parallel()
	tests := []struct {
		target, query, parameter string
	}{
		{tDAGs, "perPage=201", "perPage"},
		{tDAGs, "active=true", "active"},
		{tDAGs, "page=1&page=2", "page"},
		{tRuns, "cursor=", "cursor"},
		{tStepLog, "tail=5&limit=2", "limit"},
		{tForeachItems, "status=skipped", "status"},
	}
	for _, tt := range tests {
		args := queryTargetArgs[tt.target]
		inputs := map[string]string{
			"target": fmt.Sprintf(`{"target":%q%s,"query":%q}`, tt.target, args.fields, tt.query),
			"uri":    fmt.Sprintf(`{"uri":%q}`, args.uri+"?"+tt.query),
		}
		for mode, in := range inputs {
			t.Run(mode+"/"+tt.target+"/"+tt.query, func(t *testing.T) {
				t.Parallel()
				tool, _ := newStubTool(t)
				e := errorOf(t, callJSON(t, tool, in))
				if got := e.Details["parameter"]; got != tt.parameter {
					t.Fatalf("details.parameter = %v, want %q (error %+v)", got, tt.parameter, e)
				}
			})
		}
	}
}
