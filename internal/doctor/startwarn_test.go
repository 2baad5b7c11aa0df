// SPDX-License-Identifier: Apache-2.0

package doctor

import (
	"io"
	"log/slog"
	"strings"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/config"
)

// TestStartWarnsOfMisleadingSettings: a --public-url ending in /mcp (its
// resource became https://gw.example.com/mcp/mcp without a word) and a
// --trusted-proxies network of every address are warned about; the
// documented forms are not.
func TestStartWarnsOfMisleadingSettings(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		publicURL string
		proxies   []string
		want      string
	}{
		{publicURL: "https://gw.example.com/mcp", want: "https://gw.example.com/mcp/mcp"},
		{publicURL: "https://gw.example.com/dagu/mcp/", want: "--public-url ends with /mcp"},
		{proxies: []string{"0.0.0.0/0"}, want: "--trusted-proxies 0.0.0.0/0 trusts every address"},
		{proxies: []string{"10.0.0.0/8", "::/0"}, want: "--trusted-proxies ::/0 trusts every address"},
		{publicURL: "https://gw.example.com"},
		{publicURL: "https://gw.example.com/dagu", proxies: []string{"10.0.0.0/8", "fd00::/8", "192.0.2.7"}},
		{publicURL: "https://gw.example.com/mcpx"},
	} {
		proxies, err := config.ParseTrustedProxies(tc.proxies)
		if err != nil {
			t.Fatal(err)
		}
		var logs strings.Builder
		WarnMisleadingSettings(testLogger(&logs), config.Config{PublicURL: tc.publicURL}, proxies)
		switch {
		case tc.want == "" && logs.Len() > 0:
			t.Errorf("%q %v: unexpected warning: %s", tc.publicURL, tc.proxies, logs.String())
		case tc.want != "" && !strings.Contains(logs.String(), tc.want):
			t.Errorf("%q %v: warning lacks %q: %s", tc.publicURL, tc.proxies, tc.want, logs.String())
		}
	}
}

// TestWarnsWithoutAKey: a gateway that reads Dagu with its own key warns
// when none is configured, naming the key file's variable; not with a key,
// a key file, or in passthrough (callers bring their keys).
func TestWarnsWithoutAKey(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		cfg  config.Config
		warn bool
	}{
		{"no key", config.Config{}, true},
		{"key", config.Config{DaguAPIKey: "k"}, false},
		{"key file", config.Config{DaguAPIKeyFile: "/run/secrets/dagu-key"}, false},
		{"passthrough", config.Config{UpstreamAuth: config.UpstreamAuthPassthrough}, false},
	} {
		var logs strings.Builder
		WarnWithoutKey(testLogger(&logs), tc.cfg)
		if warned := strings.Contains(logs.String(), "DAGU_API_KEY_FILE"); warned != tc.warn {
			t.Errorf("%s: warned %v, want %v: %s", tc.name, warned, tc.warn, logs.String())
		}
	}
}

// TestWarnsOfInsecureTLS: only a skipped certificate check is warned about.
func TestWarnsOfInsecureTLS(t *testing.T) {
	t.Parallel()
	for _, skip := range []bool{false, true} {
		var logs strings.Builder
		WarnInsecureTLS(testLogger(&logs), config.Config{DaguInsecureSkipVerify: skip})
		if warned := strings.Contains(logs.String(), "TLS VERIFICATION OF THE DAGU SERVER IS DISABLED"); warned != skip {
			t.Errorf("skip verify %v: warned %v: %s", skip, warned, logs.String())
		}
	}
}

func testLogger(w io.Writer) *slog.Logger { return slog.New(slog.NewTextHandler(w, nil)) }
