// SPDX-License-Identifier: Apache-2.0

package doctor

// The warnings a gateway logs at start-up about valid settings that are
// most likely not what the operator meant: doctor's advice that needs no
// call to Dagu.

import (
	"log/slog"
	"net/netip"
	"net/url"
	"strings"

	"github.com/dagu-mcp-gateway/gateway/internal/config"
)

// WarnWithoutKey warns when the gateway reads Dagu with its own key and none is
// configured: every read then fails with unauthenticated unless Dagu's
// authentication is off, which doctor tells.
func WarnWithoutKey(log *slog.Logger, cfg config.Config) {
	if cfg.Passthrough() || HasKey(cfg) {
		return
	}
	log.Warn("no Dagu API key is configured: reads fail unless Dagu's authentication is off; put the key in a file and set " +
		keyFileSetting.Env + " (or set " + keySetting.Env + "), then check with doctor")
}

// WarnInsecureTLS warns, loudly, when the Dagu server's certificate is not
// checked (--dagu-insecure-skip-verify).
func WarnInsecureTLS(log *slog.Logger, cfg config.Config) {
	if cfg.DaguInsecureSkipVerify {
		log.Warn("TLS VERIFICATION OF THE DAGU SERVER IS DISABLED (--dagu-insecure-skip-verify): " +
			"anyone on the network path can read the API key and forge answers; use --dagu-ca-file instead")
	}
}

// WarnMisleadingSettings warns about a --public-url that already ends in /mcp
// (the gateway appends /mcp, so the advertised resource becomes
// .../mcp/mcp), and a --trusted-proxies network that holds every address
// (then any client names its own address in X-Forwarded-For).
func WarnMisleadingSettings(log *slog.Logger, cfg config.Config, proxies []netip.Prefix) {
	if u, err := url.Parse(cfg.PublicURL); cfg.PublicURL != "" && err == nil && strings.HasSuffix(strings.TrimRight(u.Path, "/"), "/mcp") {
		log.Warn("--public-url ends with /mcp, and the gateway appends /mcp to it: clients are pointed at "+
			strings.TrimRight(cfg.PublicURL, "/")+"/mcp; give the URL without /mcp (GATEWAY_PUBLIC_URL) unless the gateway really is mounted under that path",
			"public_url", cfg.PublicURL)
	}
	for _, p := range proxies {
		if p.Bits() == 0 {
			log.Warn("--trusted-proxies "+p.String()+" trusts every address: any client can then name any address in the forwarding header, and the limits per address count what callers write; list only the networks of your proxies",
				"trusted_proxies", p.String())
		}
	}
}
