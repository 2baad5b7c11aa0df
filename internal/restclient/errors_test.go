// SPDX-License-Identifier: Apache-2.0

package restclient

import "testing"

// TestErrorText: what doctor's Detection line and the logs show names the
// route and the status, with the code and excerpt only when Dagu sent them
// (a bare 401 used to read "dagu /openapi.json: HTTP 401 : ").
func TestErrorText(t *testing.T) {
	t.Parallel()
	tests := []struct {
		err  Error
		want string
	}{
		{Error{Route: "/openapi.json", Status: 401}, "dagu /openapi.json: HTTP 401"},
		{Error{Route: "/openapi.json", Status: 403, Excerpt: "API key is not allowed for this surface"}, "dagu /openapi.json: HTTP 403: API key is not allowed for this surface"},
		{Error{Route: "/dags", Status: 404, Code: "not_found", Excerpt: "no such DAG"}, "dagu /dags: HTTP 404 not_found: no such DAG"},
		{Error{Route: "/dags", Status: 500, Code: "internal"}, "dagu /dags: HTTP 500 internal"},
		{Error{Route: "/dags", Refused: true}, "dagu /dags: refused"},
		{Error{Route: "/dags", Timeout: true, Excerpt: "deadline exceeded"}, "dagu /dags: timeout: deadline exceeded"},
	}
	for _, tt := range tests {
		if got := tt.err.Error(); got != tt.want {
			t.Errorf("Error() = %q, want %q", got, tt.want)
		}
	}
}
