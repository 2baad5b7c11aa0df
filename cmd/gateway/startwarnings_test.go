// SPDX-License-Identifier: Apache-2.0

package main

import (
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
		warnMisleadingSettings(testLogger(&logs), config.Config{PublicURL: tc.publicURL}, proxies)
		switch {
		case tc.want == "" && logs.Len() > 0:
			t.Errorf("%q %v: unexpected warning: %s", tc.publicURL, tc.proxies, logs.String())
		case tc.want != "" && !strings.Contains(logs.String(), tc.want):
			t.Errorf("%q %v: warning lacks %q: %s", tc.publicURL, tc.proxies, tc.want, logs.String())
		}
	}
}
