// SPDX-License-Identifier: Apache-2.0

package main

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/restclient"
)

// TestReadyzDetailOnlyForTrustedCallers: the open answer is ready or not;
// a caller on an accepted Host with a valid token (when tokens exist) gets
// the detail.
func TestReadyzDetailOnlyForTrustedCallers(t *testing.T) {
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
			h, _ := frontDoor(t, func(o *FrontDoorOptions) { o.Ready, o.Tokens = ready, tt.tokens })
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

// TestReadinessCacheCallsDaguOncePerInterval: however often /readyz is
// asked, Dagu sees at most one probe per readyCacheTTL.
func TestReadinessCacheCallsDaguOncePerInterval(t *testing.T) {
	now := time.Unix(1000, 0)
	c := readinessCache{now: func() time.Time { return now }}
	var calls atomic.Int32
	probe := func(context.Context) restclient.ProbeResult {
		calls.Add(1)
		return restclient.ProbeResult{OK: true}
	}
	for range 100 {
		c.probe(context.Background(), probe)
	}
	if calls.Load() != 1 {
		t.Fatalf("%d probes within the interval, want 1", calls.Load())
	}
	now = now.Add(readyCacheTTL)
	c.probe(context.Background(), probe)
	if calls.Load() != 2 {
		t.Fatalf("%d probes after the interval, want 2", calls.Load())
	}
}
