// SPDX-License-Identifier: Apache-2.0

package doctor

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/config"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient"
)

// TestLogReached: the start-up line says what the gateway reached: the
// release and REST API when Dagu reads with the key, an ERROR with
// doctor's sentence and the doctor command when Dagu refuses the key or
// cannot be read, a WARN when the release is unknown; never the key.
func TestLogReached(t *testing.T) {
	t.Parallel()
	const secret = "dagu_secret_key_value"
	caps := restclient.Capabilities{Version: "2.7.1", APIBase: restclient.APIv1}
	refused := &restclient.Error{Route: "/openapi.json", Status: http.StatusUnauthorized}
	service := config.Config{DaguURL: "http://dagu:8080", DaguAPIKey: secret, UpstreamAuth: config.UpstreamAuthService}
	passthrough := config.Config{DaguURL: "http://dagu:8080", UpstreamAuth: config.UpstreamAuthPassthrough}
	for _, tc := range []struct {
		name  string
		cfg   config.Config
		r     Reached
		level string
		want  map[string]string // attribute -> text it contains ("msg" too)
	}{
		{"accepted", service, Reached{Caps: caps, Probe: restclient.ProbeResult{OK: true}}, "INFO",
			map[string]string{"msg": "Dagu reached", "dagu": "http://dagu:8080", "release": "2.7.1", "rest_api": "http://dagu:8080/api/v1", "api_key": "accepted"}},
		{"no key needed", config.Config{DaguURL: "http://dagu:8080"}, Reached{Caps: caps, Probe: restclient.ProbeResult{OK: true}}, "INFO",
			map[string]string{"api_key": "none needed"}},
		{"refused key", service, Reached{DetectErr: refused,
			Probe: restclient.ProbeResult{Reason: restclient.ProbeAuth, Status: http.StatusUnauthorized, Detail: "Dagu answered HTTP 401"}}, "ERROR",
			map[string]string{"msg": "Dagu refused the gateway's API key", "problem": "Dagu rejected the API key given by --dagu-api-key / DAGU_API_KEY (HTTP 401). It is wrong, expired or revoked",
				"next": "run `dagu-mcp-gateway doctor` with the same settings"}},
		{"no key", config.Config{DaguURL: "http://dagu:8080"}, Reached{DetectErr: refused,
			Probe: restclient.ProbeResult{Reason: restclient.ProbeAuth, Status: http.StatusUnauthorized}}, "ERROR",
			map[string]string{"msg": "Dagu requires an API key and none is configured", "problem": "No API key is configured and Dagu requires one."}},
		{"refused key of an instance", service, Reached{DetectErr: refused, Instance: "prod", MCP: "http://gw/dagu/prod/mcp",
			Probe: restclient.ProbeResult{Reason: restclient.ProbeAuth, Status: http.StatusUnauthorized}}, "ERROR",
			map[string]string{"next": "`dagu-mcp-gateway doctor --instance prod`", "mcp": "http://gw/dagu/prod/mcp"}},
		{"nothing answers", service, Reached{DetectErr: refused,
			Probe: restclient.ProbeResult{Reason: restclient.ProbeNetwork, Detail: "network: connection refused"}}, "ERROR",
			map[string]string{"msg": "Dagu could not be read", "problem": "Nothing answered at http://dagu:8080."}},
		{"release unknown", service, Reached{DetectErr: &restclient.Error{Route: "/health", Status: http.StatusBadGateway},
			Probe: restclient.ProbeResult{OK: true}}, "WARN",
			map[string]string{"msg": "its release could not be detected", "error": "502"}},
		{"passthrough before a caller's key", passthrough, Reached{DetectErr: refused, Probe: restclient.ProbeResult{OK: true}}, "INFO",
			map[string]string{"msg": "detected with the first caller's key"}},
		{"passthrough", passthrough, Reached{Caps: caps, Probe: restclient.ProbeResult{OK: true}}, "INFO",
			map[string]string{"api_key": "each caller's own"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var buf bytes.Buffer
			LogReached(context.Background(), slog.New(slog.NewJSONHandler(&buf, nil)), tc.cfg, tc.r)
			var line map[string]any
			if err := json.Unmarshal(buf.Bytes(), &line); err != nil || strings.Count(buf.String(), "\n") != 1 {
				t.Fatalf("want one JSON line, got %q (%v)", buf.String(), err)
			}
			if line["level"] != tc.level {
				t.Errorf("level %v, want %s: %s", line["level"], tc.level, buf.String())
			}
			for attr, want := range tc.want {
				if got, _ := line[attr].(string); !strings.Contains(got, want) {
					t.Errorf("%s = %q, want it to contain %q", attr, got, want)
				}
			}
			if strings.Contains(buf.String(), secret) {
				t.Errorf("the line carries the key: %s", buf.String())
			}
		})
	}
}
