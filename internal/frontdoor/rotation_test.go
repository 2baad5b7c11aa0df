// SPDX-License-Identifier: Apache-2.0

package frontdoor

import (
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/config"
	"github.com/dagu-mcp-gateway/gateway/internal/reqctx"
	"github.com/dagu-mcp-gateway/gateway/internal/testkit"
)

// TestTokenFileRotation: the token file is read again when it changes, so
// a new token works and a revoked one stops working without a restart; a
// "name:token" line names the caller.
func TestTokenFileRotation(t *testing.T) {
	t.Parallel()
	const (
		oldToken = "old-token-0123456789abcdef"
		newToken = "new-token-0123456789abcdef"
	)
	file := filepath.Join(t.TempDir(), "tokens")
	write := func(content string, mod time.Time) {
		if err := os.WriteFile(file, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(file, mod, mod); err != nil {
			t.Fatal(err)
		}
	}
	write("# team tokens\nops:"+oldToken+"\n", time.Unix(1000, 0))
	var caller string
	clk := testkit.NewClock(time.Unix(1_000_000, 0))
	h, _ := frontDoor(t, func(o *Options) {
		o.TokenFile = file
		o.Now = clk.Now
		o.MCP = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			info, _ := reqctx.From(r.Context())
			caller = info.Caller
		})
	})
	status := func(token string) int {
		return frontDoorRequest{path: "/mcp", auth: "Bearer " + token}.do(h).Code
	}
	if got := status(oldToken); got != http.StatusOK || caller != "ops" {
		t.Fatalf("named token: status %d, caller %q", got, caller)
	}
	if got := status(newToken); got != http.StatusUnauthorized {
		t.Fatalf("unknown token: status %d", got)
	}
	write(newToken+"\n", time.Unix(2000, 0)) // rotate: the old token is revoked
	clk.Advance(config.DefaultStatInterval)  // the next look at the file
	if got := status(newToken); got != http.StatusOK || caller == "ops" || caller == "" {
		t.Fatalf("rotated-in token: status %d, caller %q", got, caller)
	}
	if got := status(oldToken); got != http.StatusUnauthorized {
		t.Fatalf("revoked token still accepted: status %d", got)
	}
}
