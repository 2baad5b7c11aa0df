// SPDX-License-Identifier: Apache-2.0

package doctor

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/config"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient"
	"github.com/dagu-mcp-gateway/gateway/internal/upstream"
)

// TestRunSaysWhatToDo: each probe outcome gets its verdict and advice, the
// key is never printed, an unreachable Dagu is said once, and a shared
// state that is not configured is not mentioned. The advice goes by the
// failure's facts (an https URL answered in plain HTTP, a web page where
// the API should be), never "Nothing answered" when something did.
func TestRunSaysWhatToDo(t *testing.T) {
	t.Parallel()
	const secret = "dagu_secret_key_value"
	tests := []struct {
		name   string
		cfg    config.Config
		probe  restclient.ProbeResult
		ok     bool
		wants  []string
		absent []string
	}{
		{"unreachable", config.Config{DaguURL: "http://127.0.0.1:1", DaguAPIKey: secret},
			restclient.ProbeResult{Reason: restclient.ProbeNetwork, Detail: "connection refused"}, false,
			[]string{"Reachable:    no (connection refused)", "Nothing answered at http://127.0.0.1:1"}, []string{"Detection:", "network: network:"}},
		{"no key", config.Config{DaguURL: "http://dagu"},
			restclient.ProbeResult{Reason: restclient.ProbeAuth, Status: http.StatusUnauthorized}, false,
			[]string{"No API key is configured", "DAGU_API_KEY_FILE"}, nil},
		{"rejected key", config.Config{DaguURL: "http://dagu", DaguAPIKey: secret},
			restclient.ProbeResult{Reason: restclient.ProbeAuth, Status: http.StatusUnauthorized}, false,
			[]string{"rejected the API key given by --dagu-api-key", "HTTP 401"}, nil},
		{"role too low", config.Config{DaguURL: "http://dagu", DaguAPIKey: secret},
			restclient.ProbeResult{Reason: restclient.ProbeAuth, Status: http.StatusForbidden}, false,
			[]string{"HTTP 403", "viewer or higher"}, nil},
		{"no rest_api surface", config.Config{DaguURL: "http://dagu", DaguAPIKey: secret},
			restclient.ProbeResult{Reason: restclient.ProbeSurface}, false,
			[]string{"lacks the rest_api surface"}, nil},
		{"https against plain HTTP", config.Config{DaguURL: "https://dagu:8080", DaguAPIKey: secret},
			restclient.ProbeResult{Reason: restclient.ProbeNetwork, Detail: "network: ...", Err: &restclient.Error{PlainHTTP: true}}, false,
			[]string{"answered in plain HTTP, not TLS: it probably speaks http://, not https://", "with http://"}, []string{"Nothing answered"}},
		{"TLS handshake failed", config.Config{DaguURL: "https://dagu", DaguAPIKey: secret},
			restclient.ProbeResult{Reason: restclient.ProbeTLS, Detail: "tls: unknown authority", Err: &restclient.Error{TLS: true}}, false,
			[]string{"The TLS handshake with https://dagu failed (tls: unknown authority)", "--dagu-ca-file (DAGU_CA_FILE)"}, []string{"Nothing answered"}},
		{"a web page, not the API", config.Config{DaguURL: "http://dagu/ui", DaguAPIKey: secret},
			restclient.ProbeResult{Reason: restclient.ProbeUpstream, Detail: "decode: answer is not a JSON body (text/html)",
				Err: &restclient.Error{Undecodable: true, ContentType: "text/html"}}, false,
			[]string{"Something answered at http://dagu/ui, but with text/html, not Dagu's JSON API", "wrong path", "Set DAGU_URL to Dagu's base URL"},
			[]string{"The gateway cannot read", "Nothing answered"}},
		{"no API under the URL", config.Config{DaguURL: "http://dagu/wrong", DaguAPIKey: secret, InstancesFile: "/etc/instances.yaml"},
			restclient.ProbeResult{Reason: restclient.ProbeUpstream, Detail: "Dagu answered HTTP 404", Status: http.StatusNotFound}, false,
			[]string{"No Dagu REST API answers at http://dagu/wrong (HTTP 404)", "Set the instance's url in /etc/instances.yaml to Dagu's base URL"}, nil},
		{"Dagu fails", config.Config{DaguURL: "http://dagu", DaguAPIKey: secret},
			restclient.ProbeResult{Reason: restclient.ProbeUpstream, Detail: "Dagu answered HTTP 502", Status: http.StatusBadGateway}, false,
			[]string{"or a proxy in front of it, failed (HTTP 502)"}, nil},
		{"accepted", config.Config{DaguURL: "http://dagu", DaguAPIKey: secret},
			restclient.ProbeResult{OK: true}, true,
			[]string{"the API key is accepted", "Targets:", "(but this key gets 403", "answers 403 (the key's role is too low"}, []string{"Shared state"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var out strings.Builder
			deps := Deps{
				Detect: func(context.Context) (restclient.Capabilities, error) {
					if !tt.probe.OK {
						return restclient.Capabilities{}, errors.New("detection failed")
					}
					return restclient.Capabilities{Version: "2.7.0", APIBase: restclient.APIv1, EventLogs: true}, nil
				},
				Probe: func(context.Context) restclient.ProbeResult { return tt.probe },
				RoleAccess: func(context.Context, restclient.Capabilities) []upstream.RoleAccess {
					return []upstream.RoleAccess{{Route: restclient.RouteEventLogs, Status: http.StatusForbidden, Loss: "no attempt IDs"}}
				},
			}
			if ok := Run(context.Background(), &out, tt.cfg, deps); ok != tt.ok {
				t.Errorf("Run = %v, want %v", ok, tt.ok)
			}
			text := out.String()
			for _, want := range tt.wants {
				if !strings.Contains(text, want) {
					t.Errorf("no %q in:\n%s", want, text)
				}
			}
			for _, bad := range append(tt.absent, secret) {
				if strings.Contains(text, bad) {
					t.Errorf("%q in:\n%s", bad, text)
				}
			}
		})
	}
}
