// SPDX-License-Identifier: Apache-2.0

package frontdoor

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestUnauthorizedNamesTheConfiguredSource (issue 21, row "401/403
// texts"): a 401 and the registration refusal name the settings the
// operator actually used for the tokens (the file's when only a file is
// configured), and a wrong token gets a different message from a missing
// one: not "configure the client to send", since it does.
func TestUnauthorizedNamesTheConfiguredSource(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "tokens")
	if err := os.WriteFile(file, []byte("ops:"+tokenA+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name          string
		tokens        []string
		file          string
		names, absent []string
	}{
		{"token file", nil, file, []string{"--auth-token-file / GATEWAY_AUTH_TOKEN_FILE"}, []string{"GATEWAY_AUTH_TOKENS", "--auth-token "}},
		{"tokens", []string{tokenA}, "", []string{"--auth-token / GATEWAY_AUTH_TOKENS"}, []string{"GATEWAY_AUTH_TOKEN_FILE"}},
		{"both", []string{tokenB}, file, []string{"--auth-token / GATEWAY_AUTH_TOKENS", "--auth-token-file / GATEWAY_AUTH_TOKEN_FILE"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h, _ := frontDoor(t, func(o *Options) { o.Tokens, o.TokenFile = tt.tokens, tt.file })
			missing := jsonBody(t, frontDoorRequest{path: "/mcp"}.do(h))["message"].(string)
			rejected := jsonBody(t, frontDoorRequest{path: "/mcp", auth: "Bearer not-a-token-of-this-gateway"}.do(h))["message"].(string)
			w := frontDoorRequest{path: registrationPath}.do(h)
			if w.Code != http.StatusForbidden {
				t.Fatalf("registration: %d", w.Code)
			}
			registration := jsonBody(t, w)["error_description"].(string)
			for _, msg := range []string{missing, rejected, registration} {
				for _, want := range tt.names {
					if !strings.Contains(msg, want) {
						t.Errorf("%q does not name %s", msg, want)
					}
				}
				for _, not := range tt.absent {
					if strings.Contains(msg, not) {
						t.Errorf("%q names %s, which is not configured", msg, not)
					}
				}
			}
			if !strings.Contains(missing, "carried none") || !strings.Contains(missing, "configure the client to send") {
				t.Errorf("missing token: %q", missing)
			}
			if strings.Contains(rejected, "configure the client") || !strings.Contains(rejected, "not one this gateway accepts") {
				t.Errorf("rejected token: %q", rejected)
			}
		})
	}
}
