// SPDX-License-Identifier: Apache-2.0

package frontdoor

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
)

// TestReadinessPerInstance: /readyz?instance=NAME answers one instance,
// a name not served is a 404 naming the instances to trusted callers only,
// and a token limited to some instances gets the detail of those alone.
func TestReadinessPerInstance(t *testing.T) {
	t.Parallel()
	eps := newFakeEndpoints("prod", "staging")
	h, err := New(Options{
		Instances: eps,
		Tokens:    []string{tokenA, "staging-ci:" + stagingToken + " instances=staging"},
		Listen:    "127.0.0.1:8090",
		// Each answer says what it was asked: ok unless prod.
		Ready: func(_ context.Context, detailed bool) (bool, any) {
			return true, map[string]any{"asked": fmt.Sprintf("all detailed=%v", detailed)}
		},
		ReadyInstance: func(_ context.Context, name string, detailed bool) (bool, bool, any) {
			if !slices.Contains(eps.names, name) {
				return false, false, nil
			}
			return true, name != "prod", map[string]any{"asked": fmt.Sprintf("%s detailed=%v", name, detailed)}
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, target, token string
		want                int
		wantBody            string
	}{
		{"all, open", "/readyz", "", 200, `"all detailed=false"`},
		{"all, token of every instance", "/readyz", tokenA, 200, `"all detailed=true"`},
		{"all, token of staging only", "/readyz", stagingToken, 200, `"all detailed=false"`},
		{"down instance, open", "/readyz?instance=prod", "", 503, `"prod detailed=false"`},
		{"up instance, token", "/readyz?instance=staging", tokenA, 200, `"staging detailed=true"`},
		{"instance outside the token's", "/readyz?instance=prod", stagingToken, 503, `"prod detailed=false"`},
		{"instance of the token's", "/readyz?instance=staging", stagingToken, 200, `"staging detailed=true"`},
		{"unknown, open", "/readyz?instance=nope", "", 404, `{"error":"no Dagu instance by that name"}`},
		{"unknown, token", "/readyz?instance=nope", tokenA, 404, `"instances":["prod","staging"]`},
		{"unknown, token of staging", "/readyz?instance=nope", stagingToken, 404, `"instances":["staging"]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			w := serveInstance(h, http.MethodGet, tt.target, tt.token)
			if w.Code != tt.want || !strings.Contains(w.Body.String(), tt.wantBody) {
				t.Fatalf("%s: %d %s, want %d with %s", tt.target, w.Code, w.Body.String(), tt.want, tt.wantBody)
			}
		})
	}
}

// TestReadinessIgnoresInstanceWithoutInstances: a gateway of one Dagu
// answers /readyz?instance=x as /readyz.
func TestReadinessIgnoresInstanceWithoutInstances(t *testing.T) {
	t.Parallel()
	h, _ := frontDoor(t, func(o *Options) {
		o.Ready = func(context.Context, bool) (bool, any) { return true, map[string]any{"dagu": "reachable"} }
	})
	w := frontDoorRequest{method: "GET", path: "/readyz?instance=x"}.do(h)
	if w.Code != 200 || !strings.Contains(w.Body.String(), "reachable") {
		t.Fatalf("%d %s", w.Code, w.Body.String())
	}
}

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
