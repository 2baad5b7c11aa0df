// SPDX-License-Identifier: Apache-2.0

package oidc

import (
	"context"
	"fmt"
	"strings"

	"github.com/dagu-mcp-gateway/gateway/internal/config"
)

// discoveryPath is where an OpenID provider publishes its discovery
// document, under its issuer URL (OpenID Connect Discovery 1.0, 4).
const discoveryPath = "/.well-known/openid-configuration"

// discoveryDocument is the part of the issuer's discovery document the
// gateway reads.
type discoveryDocument struct {
	Issuer  string `json:"issuer"`
	JWKSURI string `json:"jwks_uri"`
}

// discover reads the issuer's discovery document and returns its JWKS
// URL. The document must name exactly the configured issuer (a document
// served for another issuer is refused), and the JWKS URL must be one an
// issuer may be at (https, or http on a loopback address).
func (f *fetcher) discover(ctx context.Context, issuer string) (string, error) {
	var doc discoveryDocument
	if err := f.getJSON(ctx, strings.TrimSuffix(issuer, "/")+discoveryPath, &doc); err != nil {
		return "", fmt.Errorf("discovery document: %w", err)
	}
	if doc.Issuer != issuer {
		return "", fmt.Errorf("discovery document: it names the issuer %q, not %q (--oidc-issuer must be the issuer exactly as the provider writes it)", doc.Issuer, issuer)
	}
	if doc.JWKSURI == "" {
		return "", fmt.Errorf("discovery document: no jwks_uri")
	}
	if err := config.CheckIssuerURL("discovery document: jwks_uri", doc.JWKSURI); err != nil {
		return "", err
	}
	return doc.JWKSURI, nil
}
