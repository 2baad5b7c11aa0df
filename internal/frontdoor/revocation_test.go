// SPDX-License-Identifier: Apache-2.0

package frontdoor

import (
	"context"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/config"
	"github.com/dagu-mcp-gateway/gateway/internal/testkit"
)

// TestARevokedTokensReadsInFlightEndWithoutData: a read of a file token
// blocked at Dagu when the file drops the token (or limits it to other
// instances) is cancelled and gets the 401 of a token not accepted, or,
// when its answer had begun, nothing more of it; a token the file keeps
// gets its answer.
func TestARevokedTokensReadsInFlightEndWithoutData(t *testing.T) {
	t.Parallel()
	const (
		token = "reader-token-0123456789abcdef"
		other = "other-token-0123456789abcdef"
		data  = "step-log-sentinel"
	)
	tests := []struct {
		name       string
		after      string // the file's content while the read waits
		begun      bool   // the answer's first bytes went out before
		wantStatus int
		wantData   bool
	}{
		{name: "token removed", after: other + "\n", wantStatus: http.StatusUnauthorized},
		{name: "token limited to another instance", after: token + " instances=b\n", wantStatus: http.StatusUnauthorized},
		{name: "token removed after the answer began", after: other + "\n", begun: true, wantStatus: http.StatusOK},
		{name: "token kept", after: token + "\n" + other + "\n", wantStatus: http.StatusOK, wantData: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			file := filepath.Join(t.TempDir(), "tokens")
			write := func(content string, mod time.Time) {
				if err := os.WriteFile(file, []byte(content), 0o600); err != nil {
					t.Fatal(err)
				}
				if err := os.Chtimes(file, mod, mod); err != nil {
					t.Fatal(err)
				}
			}
			write(token+"\n", time.Unix(1000, 0))
			clk := testkit.NewClock(time.Unix(1_000_000, 0))
			blocked := make(chan struct{})
			release := make(chan struct{})
			cause := make(chan error, 1)
			h, _ := frontDoor(t, func(o *Options) {
				o.TokenFile = file
				o.Now = clk.Now
				o.MCP = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					if tt.begun {
						_, _ = io.WriteString(w, "begun;")
						http.NewResponseController(w).Flush()
					}
					close(blocked)
					select { // the read waits at Dagu
					case <-r.Context().Done():
					case <-release:
					}
					cause <- context.Cause(r.Context())
					_, _ = io.WriteString(w, data)
				})
			})
			done := make(chan *http.Response, 1)
			go func() {
				done <- frontDoorRequest{path: "/mcp", auth: "Bearer " + token}.do(h).Result()
			}()
			<-blocked
			write(tt.after, time.Unix(2000, 0))
			clk.Advance(config.DefaultStatInterval) // the next look at the file
			if tt.wantData {
				close(release) // kept: the read ends when Dagu answers
			}
			res := <-done
			body, _ := io.ReadAll(res.Body)
			if res.StatusCode != tt.wantStatus || strings.Contains(string(body), data) != tt.wantData {
				t.Fatalf("status %d, body %q; want %d, data %v", res.StatusCode, body, tt.wantStatus, tt.wantData)
			}
			if got := <-cause; tt.wantData != (got == nil) || !tt.wantData && !errors.Is(got, errTokenRevoked) {
				t.Fatalf("the read's context ended by %v", got)
			}
			if tt.wantStatus == http.StatusUnauthorized && (!strings.Contains(string(body), `"error":"unauthorized"`) || res.Header.Get("WWW-Authenticate") == "") {
				t.Fatalf("not the 401 of a token not accepted: %q, challenge %q", body, res.Header.Get("WWW-Authenticate"))
			}
		})
	}
}
