// SPDX-License-Identifier: Apache-2.0

package fakedagu_test

import (
	"encoding/base64"
	"net/http"
	"net/url"
	"slices"
	"testing"
)

// walkDAGSearch follows nextCursor until the feed ends.
func walkDAGSearch(t *testing.T, a api, query string) []string {
	t.Helper()
	var files []string
	path := "/search/dags?" + query
	for range 50 {
		body := a.get(t, path).object(t)
		files = append(files, names(t, body["results"], "fileName")...)
		next, more := body["nextCursor"].(string)
		if body["hasMore"] != more {
			t.Fatalf("hasMore %v disagrees with nextCursor %q", body["hasMore"], next)
		}
		if !more {
			return files
		}
		path = "/search/dags?" + query + "&cursor=" + url.QueryEscape(next)
	}
	t.Fatal("search feed does not end")
	return nil
}

func TestDAGSearchCursorWalksTheWholeFeed(t *testing.T) {
	t.Parallel()
	a := startAPI(t, nil)
	all := walkDAGSearch(t, a, "q=echo&limit=50")
	for _, limit := range []string{"1", "3", "7"} {
		t.Run("limit="+limit, func(t *testing.T) {
			if got := walkDAGSearch(t, a, "q=ECHO&limit="+limit); !slices.Equal(got, all) {
				t.Errorf("paged feed = %v, want %v", got, all)
			}
		})
	}
	if len(all) != 15 {
		t.Errorf("echo appears in %d DAG specs, want 15", len(all))
	}
}

func TestDAGSearchRejects(t *testing.T) {
	t.Parallel()
	a := startAPI(t, nil)
	first := a.get(t, "/search/dags?q=echo&limit=1").object(t)
	cursor := url.QueryEscape(first["nextCursor"].(string))
	garbage := base64.RawURLEncoding.EncodeToString([]byte(`{"v":1,"q":"echo"}`))
	tests := []struct {
		name, path, contentType, body string
	}{
		{"missing q", "/search/dags", "text/plain; charset=utf-8", "Query argument q is required, but not found\n"},
		{"blank q", "/search/dags?q=%20%20", "application/json", `{"code":"bad_request","message":"query parameter 'q' is required"}` + "\n"},
		{"cursor of another query", "/search/dags?q=main&cursor=" + cursor, "application/json", `{"code":"bad_request","message":"invalid search cursor"}` + "\n"},
		{"cursor with other labels", "/search/dags?q=echo&labels=nightly&cursor=" + cursor, "application/json", `{"code":"bad_request","message":"invalid search cursor"}` + "\n"},
		{"incomplete cursor", "/search/dags?q=echo&cursor=" + garbage, "application/json", `{"code":"bad_request","message":"invalid search cursor"}` + "\n"},
		{"not base64", "/search/dags?q=echo&cursor=%25%25", "application/json", `{"code":"bad_request","message":"invalid search cursor"}` + "\n"},
		{"feed cursor on matches", "/search/dags/approval_job/matches?q=echo&cursor=" + cursor, "application/json", `{"code":"bad_request","message":"invalid search cursor"}` + "\n"},
		{"bad workspace", "/search/dags?q=echo&workspace=no%20spaces", "application/json", `{"code":"bad_request","message":"invalid workspace: no spaces"}` + "\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ans := a.get(t, tt.path)
			if ans.status != http.StatusBadRequest || ans.contentType != tt.contentType || string(ans.body) != tt.body {
				t.Errorf("got %d %q %q, want 400 %q %q", ans.status, ans.contentType, ans.body, tt.contentType, tt.body)
			}
		})
	}
}

func TestDAGSearchMatchesPaging(t *testing.T) {
	t.Parallel()
	a := startAPI(t, nil)
	preview := a.get(t, "/search/dags?q=echo&limit=1").object(t)
	item := preview["results"].([]any)[0].(map[string]any)
	cursor := item["nextMatchesCursor"].(string)
	rest := a.get(t, "/search/dags/approval_job/matches?q=echo&limit=1&cursor="+url.QueryEscape(cursor)).object(t)
	matches := rest["matches"].([]any)
	if len(matches) != 1 || number(matches[0].(map[string]any), "lineNumber") != 9 {
		t.Errorf("second match = %v, want line 9", matches)
	}
	if rest["hasMore"] != false || rest["nextCursor"] != nil {
		t.Errorf("approval_job has exactly two matches, got %v", rest)
	}
	other := a.get(t, "/search/dags/big_log_job/matches?q=echo&cursor="+url.QueryEscape(cursor))
	if other.status != http.StatusBadRequest {
		t.Errorf("a cursor of another DAG must be refused, got %d", other.status)
	}
	missing := a.get(t, "/search/dags/no_such_dag/matches?q=echo")
	if missing.status != http.StatusNotFound {
		t.Errorf("missing DAG: got %d", missing.status)
	}
	all := a.get(t, "/search/dags/failing_job/matches?q=echo&limit=2").object(t)
	if len(all["matches"].([]any)) != 2 || all["hasMore"] != true {
		t.Errorf("limit 2 of 3 matches: %v", all)
	}
}
