// SPDX-License-Identifier: Apache-2.0

package frontdoor

import (
	"context"
	"strings"
	"testing"
)

// TestReadyzDetailOnlyForTrustedCallers: the open answer is ready or not;
// a caller on an accepted Host with a valid token (when tokens exist) gets
// the detail.
func TestReadyzDetailOnlyForTrustedCallers(t *testing.T) {
	t.Parallel()
	const token = "a-token-of-sixteen-chars"
	ready := func(_ context.Context, detailed bool) (bool, any) {
		if detailed {
			return true, map[string]any{"status": "ready", "dagu": "detail"}
		}
		return true, nil
	}
	tests := []struct {
		name       string
		tokens     []string
		req        frontDoorRequest
		wantDetail bool
	}{
		{"no tokens, local host", nil, frontDoorRequest{method: "GET", path: "/readyz"}, true},
		{"no tokens, foreign host", nil, frontDoorRequest{method: "GET", path: "/readyz", host: "evil.example:8090"}, false},
		{"tokens, none sent", []string{token}, frontDoorRequest{method: "GET", path: "/readyz"}, false},
		{"tokens, wrong one", []string{token}, frontDoorRequest{method: "GET", path: "/readyz", auth: "Bearer wrong-token-0000000000"}, false},
		{"tokens, valid one", []string{token}, frontDoorRequest{method: "GET", path: "/readyz", auth: "Bearer " + token}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h, _ := frontDoor(t, func(o *Options) { o.Ready, o.Tokens = ready, tt.tokens })
			w := tt.req.do(h)
			if w.Code != 200 {
				t.Fatalf("status %d", w.Code)
			}
			if got := strings.Contains(w.Body.String(), "detail"); got != tt.wantDetail {
				t.Fatalf("detail shown = %v, want %v: %s", got, tt.wantDetail, w.Body.String())
			}
		})
	}
}
