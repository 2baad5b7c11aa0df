// SPDX-License-Identifier: Apache-2.0

package frontdoor

import (
	"context"
	"crypto/sha256"
	"log/slog"
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/config"
	"github.com/dagu-mcp-gateway/gateway/internal/reqctx"
)

// countingTokens is a token file of one named token that counts the
// checks made against it.
type countingTokens struct {
	token  string
	checks atomic.Int64
}

func (c *countingTokens) Lookup(digest [sha256.Size]byte) (config.TokenEntry, bool) {
	c.checks.Add(1)
	return config.TokenEntry{Name: "ops"}, digest == sha256.Sum256([]byte(c.token))
}

// TestInboundTokenIsCheckedOncePerRequest: a request's token is checked
// once, by the front door's first step, and the verdict is carried to the
// token check of /mcp and /metrics and to /readyz (it was checked twice,
// each time against the token file), with the same answers as before.
func TestInboundTokenIsCheckedOncePerRequest(t *testing.T) {
	t.Parallel()
	const good = "a-token-from-the-file-0123"
	tests := []struct {
		name, method, path, auth string
		want                     int
	}{
		{"accepted on /mcp", http.MethodPost, "/mcp", "Bearer " + good, http.StatusOK},
		{"refused on /mcp", http.MethodPost, "/mcp", "Bearer not-the-token-0123456789", http.StatusUnauthorized},
		{"accepted on /metrics", http.MethodGet, "/metrics", "Bearer " + good, http.StatusOK},
		{"refused on /metrics", http.MethodGet, "/metrics", "Bearer not-the-token-0123456789", http.StatusUnauthorized},
		{"/readyz with a token", http.MethodGet, "/readyz", "Bearer " + good, http.StatusOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			file := &countingTokens{token: good}
			auth := newTokenAuth(nil, "", nil, nil)
			auth.file = file
			var caller string
			var detailed bool
			h, err := newWithAuth(Options{
				MCP: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					info, _ := reqctx.From(r.Context())
					caller = info.Caller
				}),
				Metrics: http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}),
				Ready:   func(_ context.Context, d bool) (bool, any) { detailed = d; return true, nil },
				Listen:  "127.0.0.1:8090",
			}, auth, slog.New(slog.DiscardHandler))
			if err != nil {
				t.Fatal(err)
			}
			if code := (frontDoorRequest{method: tt.method, path: tt.path, auth: tt.auth}).do(h).Code; code != tt.want {
				t.Fatalf("status %d, want %d", code, tt.want)
			}
			if got := file.checks.Load(); got != 1 {
				t.Errorf("the token was checked %d times for one request, want once", got)
			}
			if tt.path == "/mcp" && tt.want == http.StatusOK && caller != "ops" {
				t.Errorf("caller %q, want the file's name for the token", caller)
			}
			if tt.path == "/readyz" && !detailed {
				t.Error("/readyz with an accepted token did not answer in detail")
			}
		})
	}
}
