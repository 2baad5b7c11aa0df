// SPDX-License-Identifier: Apache-2.0

package main

import (
	"log/slog"
	"net/netip"
	"net/url"
	"strings"

	"github.com/dagu-mcp-gateway/gateway/internal/config"
)

// warnMisleadingSettings warns at start-up about valid settings that are
// most likely not what the operator meant: a --public-url that already ends
// in /mcp (the gateway appends /mcp, so the advertised resource becomes
// .../mcp/mcp), and a --trusted-proxies network that holds every address
// (then any client names its own address in X-Forwarded-For).
func warnMisleadingSettings(log *slog.Logger, cfg config.Config, proxies []netip.Prefix) {
	if u, err := url.Parse(cfg.PublicURL); cfg.PublicURL != "" && err == nil && strings.HasSuffix(strings.TrimRight(u.Path, "/"), "/mcp") {
		log.Warn("--public-url ends with /mcp, and the gateway appends /mcp to it: clients are pointed at "+
			strings.TrimRight(cfg.PublicURL, "/")+"/mcp; give the URL without /mcp (GATEWAY_PUBLIC_URL) unless the gateway really is mounted under that path",
			"public_url", cfg.PublicURL)
	}
	for _, p := range proxies {
		if p.Bits() == 0 {
			log.Warn("--trusted-proxies "+p.String()+" trusts every address: any client can then name any address in X-Forwarded-For, and the limits per address count what callers write; list only the networks of your proxies",
				"trusted_proxies", p.String())
		}
	}
}
