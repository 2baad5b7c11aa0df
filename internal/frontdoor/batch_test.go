// SPDX-License-Identifier: Apache-2.0

package frontdoor

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestBatchesAreRefused: one HTTP request is at most one call, whatever
// protocol revision the client claims (the SDK alone accepts batches from
// clients of revisions before 2025-06-18).
func TestBatchesAreRefused(t *testing.T) {
	t.Parallel()
	ts := sdkFrontDoor(t, Options{})
	list := `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`
	tests := []struct {
		name, body, version string
		want                int
		wantBody            string
	}{
		{"batch, older revision", "[" + list + "," + list + "]", "2025-03-26", 400, "batches are not supported"},
		{"batch after whitespace", " \n\t[" + list + "]", "2025-03-26", 400, "batches are not supported"},
		{"batch, current revision", "[" + list + "]", "2025-06-18", 400, "batches are not supported"},
		{"single request", list, "2025-06-18", 200, `"tools"`},
		{"single request after whitespace", "\n  " + list, "2025-06-18", 200, `"tools"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			req, _ := http.NewRequest(http.MethodPost, ts.URL+"/mcp", strings.NewReader(tt.body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			req.Header.Set("Mcp-Protocol-Version", tt.version)
			resp, err := ts.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != tt.want || !strings.Contains(string(body), tt.wantBody) {
				t.Fatalf("got %d %s; want %d with %s", resp.StatusCode, body, tt.want, tt.wantBody)
			}
		})
	}
}
