// SPDX-License-Identifier: Apache-2.0

package upstream

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/restclient"

	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
	"github.com/dagu-mcp-gateway/gateway/internal/model"
)

// TestRunsCursorKeepsTheWindow pages through an unfiltered run list while
// the clock moves: page 2 must be asked for with page 1's fromDate and
// Dagu's own cursor, or Dagu would refuse the cursor.
func TestRunsCursorKeepsTheWindow(t *testing.T) {
	t.Parallel()
	now := fakeNow
	env := newAdapterEnv(t, envOptions{detect: true, adapter: func(o *AdapterOptions) {
		o.Now = func() time.Time { return now }
	}})
	ctx := context.Background()

	var page1 *model.RunCollection
	calls1 := env.calls(func() {
		var err error
		if page1, err = env.adapter.ListRuns(ctx, model.RunListQuery{Limit: 2}); err != nil {
			t.Fatal(err)
		}
	})
	wantFrom := fromDateOf(fakeNow)
	if len(calls1) != 1 || queryOf(t, calls1[0]).Get("fromDate") != wantFrom {
		t.Fatalf("page 1 calls %q, want fromDate=%s", calls1, wantFrom)
	}
	if page1.Window == nil || page1.Window.From != fakeNow.Add(-DefaultRunWindow).Format(time.RFC3339) || page1.Window.To != "" {
		t.Fatalf("window = %+v", page1.Window)
	}
	if len(page1.Items) != 2 || !strings.HasPrefix(page1.NextCursor, runCursorPrefix) {
		t.Fatalf("page 1: %d items, cursor %q", len(page1.Items), page1.NextCursor)
	}
	inner, err := unwrapRunCursor(page1.NextCursor)
	if err != nil {
		t.Fatal(err)
	}

	now = fakeNow.Add(3 * time.Hour)
	var page2 *model.RunCollection
	calls2 := env.calls(func() {
		if page2, err = env.adapter.ListRuns(ctx, model.RunListQuery{Limit: 2, Cursor: page1.NextCursor}); err != nil {
			t.Fatal(err)
		}
	})
	q := queryOf(t, calls2[0])
	if q.Get("fromDate") != wantFrom || q.Get("cursor") != inner.Cursor {
		t.Fatalf("page 2 query %v, want fromDate=%s and Dagu's cursor", q, wantFrom)
	}
	if page2.Window == nil || page2.Window.From != page1.Window.From {
		t.Errorf("page 2 window %+v, want %+v", page2.Window, page1.Window)
	}
	if len(page2.Items) == 0 || page2.Items[0].DAGRunID == page1.Items[0].DAGRunID {
		t.Errorf("page 2 did not continue page 1: %+v", page2.Items)
	}
}

func queryOf(t *testing.T, call string) url.Values {
	t.Helper()
	_, raw, _ := strings.Cut(call, "?")
	q, err := url.ParseQuery(raw)
	if err != nil {
		t.Fatal(err)
	}
	return q
}

func TestRunsCursorErrors(t *testing.T) {
	t.Parallel()
	zero := int64(0)
	tests := []struct {
		name      string
		q         model.RunListQuery
		wantCalls int
	}{
		{"damaged gateway cursor", model.RunListQuery{Cursor: runCursorPrefix + "%%%"}, 0},
		{"gateway cursor with an unknown key", model.RunListQuery{Cursor: runCursorPrefix + "eyJjIjoieCIsImYiOjEsIngiOjF9"}, 0},
		{"damaged gateway cursor with dates", model.RunListQuery{Cursor: runCursorPrefix, FromDate: &zero}, 0},
		{"cursor Dagu refuses", model.RunListQuery{Cursor: "not-a-dagu-cursor"}, 1},
		{"gateway cursor used with other dates", model.RunListQuery{Cursor: wrapRunCursor("abc", 5), FromDate: &zero}, 1},
	}
	env := newAdapterEnv(t, envOptions{detect: true})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var err error
			calls := env.calls(func() { _, err = env.adapter.ListRuns(context.Background(), tt.q) })
			e := errorOf(t, err)
			if !refusedInput(e) || e.Field != model.FieldCursor {
				t.Errorf("error = %+v, want a 400 on cursor", e)
			}
			if len(calls) != tt.wantCalls {
				t.Errorf("calls = %q, want %d", calls, tt.wantCalls)
			}
		})
	}
}

func TestLatestRunOfADAG(t *testing.T) {
	t.Parallel()
	from := func(at time.Time) *int64 { u := at.Unix(); return &u }
	tests := []struct {
		name   string
		q      model.RunListQuery
		wantID string // "" for an empty list
	}{
		{"newest run", model.RunListQuery{}, failingRun},
		{"status matches", model.RunListQuery{Status: []int{2, 3}}, failingRun},
		{"status does not match", model.RunListQuery{Status: []int{4}}, ""},
		{"inside the dates", model.RunListQuery{FromDate: from(fakeNow.Add(-24 * time.Hour)), ToDate: from(fakeNow)}, failingRun},
		{"before fromDate", model.RunListQuery{FromDate: from(fakeNow)}, ""},
		{"after toDate", model.RunListQuery{ToDate: from(fakeNow.Add(-24 * time.Hour))}, ""},
		{"name is exact", model.RunListQuery{Name: "failing"}, ""},
		{"DAG without runs", model.RunListQuery{Name: "no_such_dag"}, ""},
	}
	env := newAdapterEnv(t, envOptions{})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := tt.q
			q.DAGRunID = "latest"
			if q.Name == "" {
				q.Name = "failing_job"
			}
			got, err := env.adapter.ListRuns(context.Background(), q)
			if err != nil {
				t.Fatal(err)
			}
			if got.Items == nil || got.Window != nil || got.NextCursor != "" {
				t.Fatalf("collection shape: %+v", got)
			}
			gotID := ""
			if len(got.Items) > 0 {
				gotID = got.Items[0].DAGRunID
			}
			if len(got.Items) > 1 || gotID != tt.wantID {
				t.Errorf("items %+v, want run %q", got.Items, tt.wantID)
			}
			if gotID != "" && got.Items[0].URI != model.RunURI("failing_job", failingRun, "") {
				t.Errorf("uri = %q", got.Items[0].URI)
			}
		})
	}
}

func TestGetRunResolvesAndNamesTheMissingID(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		addr      model.RunAddress
		wantURI   string
		wantField string
	}{
		{"root latest", runOf("failing_job", "latest"), model.RunURI("failing_job", failingRun, ""), ""},
		{"sub-run under latest", model.RunAddress{Name: "parent_job", DAGRunID: "latest", SubRunID: childRun}, model.RunURI("parent_job", parentRun, childRun), ""},
		{"missing run", runOf("failing_job", "nope"), "", model.FieldDAGRunID},
		{"DAG without runs", runOf("no_such_dag", "latest"), "", model.FieldDAGRunID},
		{"missing sub-run", model.RunAddress{Name: "parent_job", DAGRunID: parentRun, SubRunID: "nope"}, "", model.FieldSubRunID},
		{"missing root of a sub-run", model.RunAddress{Name: "parent_job", DAGRunID: "nope", SubRunID: childRun}, "", model.FieldDAGRunID},
		{"missing sub-run under latest", model.RunAddress{Name: "parent_job", DAGRunID: "latest", SubRunID: "nope"}, "", model.FieldSubRunID},
	}
	env := newAdapterEnv(t, envOptions{detect: true})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := env.adapter.GetRun(context.Background(), tt.addr)
			if tt.wantField != "" {
				if e := errorOf(t, err); e.Status != http.StatusNotFound || e.Field != tt.wantField {
					t.Errorf("error = %+v, want 404 on %s", e, tt.wantField)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.URI != tt.wantURI || got.DAGRunID == "latest" || got.AttemptID != "" {
				t.Errorf("uri %q id %q attempt %q, want uri %q and no attempt for a viewer", got.URI, got.DAGRunID, got.AttemptID, tt.wantURI)
			}
		})
	}
}

func TestAttemptID(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		role   string
		detect bool
		want   bool
	}{
		{"manager after detection", "manager", true, true},
		{"admin after detection", "admin", true, true},
		{"viewer", "viewer", true, false},
		{"first read detects", "manager", false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := newAdapterEnv(t, envOptions{fake: fakedagu.Options{Role: tt.role}, detect: tt.detect})
			got, err := env.adapter.GetRun(context.Background(), runOf("failing_job", failingRun))
			if err != nil {
				t.Fatal(err)
			}
			if (got.AttemptID != "") != tt.want {
				t.Errorf("attemptId = %q, want present: %v", got.AttemptID, tt.want)
			}
		})
	}
}

// TestAttemptIDWithoutKey covers Dagu without authentication: no key is
// sent, no role is asked for, and the event log is read.
func TestAttemptIDWithoutKey(t *testing.T) {
	t.Parallel()
	env := newAdapterEnv(t, envOptions{noAuth: true})
	calls := env.calls(func() {
		if _, err := env.adapter.Refresh(context.Background()); err != nil {
			t.Fatal(err)
		}
		got, err := env.adapter.GetRun(context.Background(), runOf("failing_job", failingRun))
		if err != nil || got.AttemptID == "" {
			t.Errorf("attempt %q, err %v", got.AttemptID, err)
		}
	})
	for _, c := range calls {
		if strings.HasPrefix(c, restclient.RouteCurrentUser) {
			t.Errorf("the role was asked for without a key: %q", calls)
		}
	}
}

// TestAttemptIDFailureIsHidden: a failing event-log read leaves the
// attempt ID out instead of failing the read.
func TestAttemptIDFailureIsHidden(t *testing.T) {
	t.Parallel()
	env := newAdapterEnv(t, envOptions{fake: fakedagu.Options{Role: "admin"}, detect: true})
	env.fake.Load().Inject(fakedagu.Fault{Route: restclient.RouteEventLogs, Status: http.StatusServiceUnavailable})
	got, err := env.adapter.GetRun(context.Background(), runOf("failing_job", failingRun))
	if err != nil || got.AttemptID != "" {
		t.Errorf("attempt %q, err %v", got.AttemptID, err)
	}
}
