// SPDX-License-Identifier: Apache-2.0

package frontdoor

import (
	"log/slog"
	"testing"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/logsample"
	"github.com/dagu-mcp-gateway/gateway/internal/testkit"
)

// TestUnverifiedAccessLinesAreBounded: a stranger's requests, however
// many, write at most the burst of access-log lines at one instant, and
// the next line let through says how many were dropped; a verified
// caller's lines are never dropped, in passthrough and with inbound tokens
// (the suite of issue 28 saw 8-13 MB of log per 10 s of made-up keys).
func TestUnverifiedAccessLinesAreBounded(t *testing.T) {
	t.Parallel()
	const strangers = 3 * logsample.Burst
	tests := []struct {
		name     string
		edit     func(*Options)
		stranger frontDoorRequest
		verified frontDoorRequest
	}{
		{
			name: "passthrough",
			edit: func(o *Options) {
				o.Passthrough, o.Listen, o.Verify = true, "0.0.0.0:8090", goodKeyVerifier(nil)
			},
			stranger: frontDoorRequest{path: "/mcp", auth: "Bearer made-up", body: ping},
			verified: frontDoorRequest{path: "/mcp", auth: "Bearer dagu_good", body: ping},
		},
		{
			name:     "inbound tokens",
			edit:     func(o *Options) { o.Tokens = []string{"a-token-of-sixteen-chars"} },
			stranger: frontDoorRequest{path: "/mcp", auth: "Bearer wrong", body: ping},
			verified: frontDoorRequest{path: "/mcp", auth: "Bearer a-token-of-sixteen-chars", body: ping},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var logs testkit.LogBuffer
			clk := testkit.NewClock(time.Unix(1_000_000, 0))
			h, _ := frontDoor(t, func(o *Options) {
				tt.edit(o)
				o.Logger = slog.New(slog.NewJSONHandler(&logs, nil))
				o.Now = clk.Now
			})
			for range strangers {
				tt.stranger.do(h)
			}
			const verifiedCalls = 10
			for range verifiedCalls {
				tt.verified.do(h)
			}
			if lines := accessLines(t, &logs); lines != logsample.Burst+verifiedCalls {
				t.Errorf("%d access lines, want the burst %d plus the %d verified calls", lines, logsample.Burst, verifiedCalls)
			}
			clk.Advance(time.Second)
			tt.stranger.do(h)
			all := logs.JSONLines(t)
			last := all[len(all)-1]
			if got, want := last["unverified_lines_dropped"], float64(strangers-logsample.Burst); got != want {
				t.Errorf("the next stranger's line says %v dropped, want %v", got, want)
			}
		})
	}
}

// accessLines counts the access-log lines written so far.
func accessLines(t *testing.T, logs *testkit.LogBuffer) int {
	t.Helper()
	n := 0
	for _, l := range logs.JSONLines(t) {
		if l["msg"] == "http request" {
			n++
		}
	}
	return n
}
