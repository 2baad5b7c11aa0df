// SPDX-License-Identifier: Apache-2.0

package mapping

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient/gen"
)

const recordedAggregate = `{"summary":{"total":3,"succeeded":2,"failed":1},"items":[` +
	`{"index":0,"key":"0","status":"succeeded"},` +
	`{"index":1,"key":"1","status":"failed","error":"boom"},` +
	`{"index":2,"key":"2","status":"succeeded"}],"outputs":[{},{}]}`

func TestParseForeachAggregate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		in      string
		want    []AggregateEntry
		wantErr bool
	}{
		{name: "recorded", in: recordedAggregate, want: []AggregateEntry{
			{Index: 0, Key: "0", Status: 4}, {Index: 1, Key: "1", Status: 2, Error: "boom"}, {Index: 2, Key: "2", Status: 4},
		}},
		{name: "trailing newline", in: recordedAggregate + "\n", want: []AggregateEntry{
			{Index: 0, Key: "0", Status: 4}, {Index: 1, Key: "1", Status: 2, Error: "boom"}, {Index: 2, Key: "2", Status: 4},
		}},
		{name: "empty", in: `{"summary":{"total":0},"items":[],"outputs":[]}`, want: []AggregateEntry{}},
		{name: "out of order, extra fields, key defaults to index", in: `{"summary":{"total":2,"extra":1},"items":[` +
			`{"index":1,"status":"not_started","outputs":{"x":1}},{"index":0,"key":"a","status":"aborted"}]}`,
			want: []AggregateEntry{{Index: 0, Key: "a", Status: 3}, {Index: 1, Key: "1", Status: 0}}},
		{name: "running", in: `{"summary":{"total":1},"items":[{"index":0,"key":"k","status":"running"}]}`,
			want: []AggregateEntry{{Index: 0, Key: "k", Status: 1}}},
		{name: "plain text", in: "Error: Line too long to read.", wantErr: true},
		{name: "empty input", in: "", wantErr: true},
		{name: "null", in: "null", wantErr: true},
		{name: "array", in: "[]", wantErr: true},
		{name: "two objects", in: recordedAggregate + "\n" + recordedAggregate, wantErr: true},
		{name: "trailing text", in: recordedAggregate + " done", wantErr: true},
		{name: "no summary", in: `{"items":[]}`, wantErr: true},
		{name: "no total", in: `{"summary":{},"items":[]}`, wantErr: true},
		{name: "no items", in: `{"summary":{"total":0}}`, wantErr: true},
		{name: "null items", in: `{"summary":{"total":0},"items":null}`, wantErr: true},
		{name: "total disagrees", in: `{"summary":{"total":2},"items":[{"index":0,"status":"failed"}]}`, wantErr: true},
		{name: "unknown status", in: `{"summary":{"total":1},"items":[{"index":0,"status":"done"}]}`, wantErr: true},
		{name: "no status", in: `{"summary":{"total":1},"items":[{"index":0}]}`, wantErr: true},
		{name: "no index", in: `{"summary":{"total":1},"items":[{"status":"failed"}]}`, wantErr: true},
		{name: "negative index", in: `{"summary":{"total":1},"items":[{"index":-1,"status":"failed"}]}`, wantErr: true},
		{name: "index too large", in: `{"summary":{"total":1},"items":[{"index":1,"status":"failed"}]}`, wantErr: true},
		{name: "fractional index", in: `{"summary":{"total":1},"items":[{"index":0.5,"status":"failed"}]}`, wantErr: true},
		{name: "repeated index", in: `{"summary":{"total":2},"items":[{"index":0,"status":"failed"},{"index":0,"status":"failed"}]}`, wantErr: true},
		{name: "key not a string", in: `{"summary":{"total":1},"items":[{"index":0,"key":1,"status":"failed"}]}`, wantErr: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseForeachAggregate([]byte(tc.in))
			if tc.wantErr {
				if err == nil {
					t.Fatalf("want an error, got %+v", got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !equalJSON(t, got.Items, tc.want) {
				t.Errorf("items = %+v, want %+v", got.Items, tc.want)
			}
		})
	}
}

func FuzzParseForeachAggregate(f *testing.F) {
	f.Add([]byte(recordedAggregate))
	f.Add([]byte(recordedAggregate + "\n"))
	f.Add([]byte(`{"summary":{"total":0},"items":[]}`))
	f.Add([]byte(`{"summary":{"total":2},"items":[{"index":1,"status":"running"},{"index":0,"status":"aborted"}]}`))
	f.Add([]byte(`{"summary":{"total":1},"items":[{"index":7,"status":"failed"}]}`))
	f.Add([]byte("Error: Line too long to read."))
	f.Fuzz(func(t *testing.T, data []byte) {
		agg, err := ParseForeachAggregate(data)
		if err != nil {
			return
		}
		for i, it := range agg.Items {
			if it.Index != i {
				t.Fatalf("item %d has index %d", i, it.Index)
			}
			if it.Status < nodeNotStarted || it.Status > nodeSucceeded {
				t.Fatalf("item %d has status %d", i, it.Status)
			}
		}
		list := AggregateItems(agg, foreachRun, "each", model.ForeachQuery{PerPage: 2})
		c := list.Counts
		if c.NotStarted+c.Running+c.Succeeded+c.Failed+c.Aborted != len(agg.Items) || list.Total != len(agg.Items) {
			t.Fatalf("counts %+v do not add up to %d items", c, len(agg.Items))
		}
	})
}

// sixItems holds one item per bucket plus a second failed one, in index
// order: succeeded, failed, not started, aborted, running, failed.
func sixItems() Aggregate {
	statuses := []int{nodeSucceeded, nodeFailed, nodeNotStarted, nodeAborted, nodeRunning, nodeFailed}
	items := make([]AggregateEntry, len(statuses))
	for i, s := range statuses {
		items[i] = AggregateEntry{Index: i, Key: itemPath(i), Status: s}
	}
	return Aggregate{Items: items}
}

func TestAggregateItems(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name        string
		q           model.ForeachQuery
		wantItems   string
		wantHasMore bool
		wantPage    [2]int
	}{
		{name: "defaults", q: model.ForeachQuery{}, wantItems: "1,3,5,4,0,2", wantPage: [2]int{1, 50}},
		{name: "first page", q: model.ForeachQuery{PerPage: 4}, wantItems: "1,3,5,4", wantHasMore: true, wantPage: [2]int{1, 4}},
		{name: "second page", q: model.ForeachQuery{Page: 2, PerPage: 4}, wantItems: "0,2", wantPage: [2]int{2, 4}},
		{name: "exact fit", q: model.ForeachQuery{Page: 2, PerPage: 3}, wantItems: "4,0,2", wantPage: [2]int{2, 3}},
		{name: "past the end", q: model.ForeachQuery{Page: 9, PerPage: 4}, wantItems: "", wantPage: [2]int{9, 4}},
		{name: "failed", q: model.ForeachQuery{Status: "failed"}, wantItems: "1,5", wantPage: [2]int{1, 50}},
		{name: "failed paged", q: model.ForeachQuery{Status: "failed", PerPage: 1}, wantItems: "1", wantHasMore: true, wantPage: [2]int{1, 1}},
		{name: "aborted", q: model.ForeachQuery{Status: "aborted"}, wantItems: "3", wantPage: [2]int{1, 50}},
		{name: "running", q: model.ForeachQuery{Status: "running"}, wantItems: "4", wantPage: [2]int{1, 50}},
		{name: "not started", q: model.ForeachQuery{Status: "not_started"}, wantItems: "2", wantPage: [2]int{1, 50}},
		{name: "succeeded", q: model.ForeachQuery{Status: "succeeded"}, wantItems: "0", wantPage: [2]int{1, 50}},
		{name: "unknown status", q: model.ForeachQuery{Status: "done"}, wantItems: "", wantPage: [2]int{1, 50}},
	}
	wantCounts := model.ForeachCounts{NotStarted: 1, Running: 1, Succeeded: 1, Failed: 2, Aborted: 1}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := AggregateItems(sixItems(), foreachRun, "each", tc.q)
			if got.Total != 6 || got.Counts != wantCounts || got.Source != "aggregate" {
				t.Errorf("total %d counts %+v source %q", got.Total, got.Counts, got.Source)
			}
			if items := itemList(got.Items); items != tc.wantItems {
				t.Errorf("items %q, want %q", items, tc.wantItems)
			}
			if got.HasMore != tc.wantHasMore || got.Page != tc.wantPage[0] || got.PerPage != tc.wantPage[1] {
				t.Errorf("hasMore %v page %d perPage %d", got.HasMore, got.Page, got.PerPage)
			}
			if got.Items == nil {
				t.Error("items is null")
			}
		})
	}
}

func itemList(items []model.ForeachItemSummary) string {
	paths := make([]string, len(items))
	for i, it := range items {
		paths[i] = it.Item
	}
	return strings.Join(paths, ",")
}

func TestAggregateItem(t *testing.T) {
	t.Parallel()
	tests := []struct {
		path    string
		wantOK  bool
		wantKey string
	}{
		{"0", true, "0"}, {"5", true, "5"}, {"6", false, ""}, {"01", false, ""}, {"+1", false, ""},
		{"-0", false, ""}, {"", false, ""}, {"1.each.0", false, ""}, {"x", false, ""},
	}
	for _, tc := range tests {
		item, ok := AggregateItem(sixItems(), foreachRun, "each", tc.path)
		if ok != tc.wantOK {
			t.Errorf("AggregateItem(%q) ok = %v", tc.path, ok)
			continue
		}
		if !ok {
			continue
		}
		if item.Key != tc.wantKey || item.Item != tc.path || item.StepsAvailable || item.Steps == nil {
			t.Errorf("AggregateItem(%q) = %+v", tc.path, item)
		}
		wantURI := model.ForeachItemURI(foreachRun.RootName, foreachRun.RootID, "", "each", tc.path)
		if item.URI != wantURI {
			t.Errorf("uri %q, want %q", item.URI, wantURI)
		}
	}
}

func TestForeachItemsHasMore(t *testing.T) {
	t.Parallel()
	one := 1
	three := 3
	counts := gen.ForeachCounts{Failed: &three, Succeeded: &one}
	page := func(n int) []gen.ForeachItemSummary { return make([]gen.ForeachItemSummary, n) }
	tests := []struct {
		name  string
		list  gen.ForeachItemList
		q     model.ForeachQuery
		want  bool
		pages [2]int
	}{
		{"all on one page", gen.ForeachItemList{Total: 4, Counts: counts, Items: page(4)}, model.ForeachQuery{}, false, [2]int{1, 50}},
		{"more pages", gen.ForeachItemList{Total: 4, Counts: counts, Items: page(2)}, model.ForeachQuery{PerPage: 2}, true, [2]int{1, 2}},
		{"last page", gen.ForeachItemList{Total: 4, Counts: counts, Items: page(2)}, model.ForeachQuery{Page: 2, PerPage: 2}, false, [2]int{2, 2}},
		{"filtered more", gen.ForeachItemList{Total: 4, Counts: counts, Items: page(2)}, model.ForeachQuery{Status: "failed", PerPage: 2}, true, [2]int{1, 2}},
		{"filtered last", gen.ForeachItemList{Total: 4, Counts: counts, Items: page(1)}, model.ForeachQuery{Status: "failed", Page: 2, PerPage: 2}, false, [2]int{2, 2}},
		{"bucket absent", gen.ForeachItemList{Total: 4, Counts: counts, Items: page(0)}, model.ForeachQuery{Status: "running", PerPage: 2}, false, [2]int{1, 2}},
		{"counts short of items", gen.ForeachItemList{Total: 0, Items: page(2)}, model.ForeachQuery{PerPage: 1}, true, [2]int{1, 1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := ForeachItems(&tc.list, syntheticRun, "each", tc.q)
			if got.HasMore != tc.want || got.Page != tc.pages[0] || got.PerPage != tc.pages[1] || got.Source != "foreach-route" {
				t.Errorf("hasMore %v page %d perPage %d source %q", got.HasMore, got.Page, got.PerPage, got.Source)
			}
		})
	}
}

// equalJSON compares two values by their JSON encoding.
func equalJSON(t *testing.T, a, b any) bool {
	t.Helper()
	ja, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	jb, err := json.Marshal(b)
	if err != nil {
		t.Fatal(err)
	}
	return string(ja) == string(jb)
}

func TestBucketOf(t *testing.T) {
	t.Parallel()
	tests := []struct {
		status    int
		want      string
		wantGroup int
	}{
		{0, "not_started", 2}, {1, "running", 1}, {2, "failed", 0}, {3, "aborted", 0}, {4, "succeeded", 2},
		{5, "not_started", 2}, {6, "not_started", 2}, {7, "not_started", 2}, {8, "not_started", 2},
		{9, "running", 1}, {42, "not_started", 2},
	}
	for _, tc := range tests {
		if got := bucketOf(tc.status); got != tc.want {
			t.Errorf("bucketOf(%d) = %q, want %q", tc.status, got, tc.want)
		}
		if got := sortGroup(tc.status); got != tc.wantGroup {
			t.Errorf("sortGroup(%d) = %d, want %d", tc.status, got, tc.wantGroup)
		}
	}
}
