// SPDX-License-Identifier: Apache-2.0

// Package redact shows values that may carry a secret without it. It
// imports no other package of the gateway, so the configuration, the shared
// state, the front door and the trust decision, leaves of the layering or
// nearly, can use the one copy.
package redact

import (
	"crypto/sha256"
	"encoding/hex"
	"net/url"
)

// Fingerprint names a secret (a token, a Dagu key) without revealing it:
// its whole SHA-256, hex. Caller names built from it are also rate-limit
// buckets, so it is never shortened: a prefix would let two accepted
// credentials share one.
func Fingerprint(secret string) string {
	return FingerprintOfDigest(sha256.Sum256([]byte(secret)))
}

// FingerprintOfDigest is Fingerprint of the secret whose SHA-256 is
// digest: for a caller that hashed the secret already.
func FingerprintOfDigest(digest [sha256.Size]byte) string {
	return hex.EncodeToString(digest[:])
}

// URL returns raw with its password, if any, replaced by "xxxxx"; "" stays
// "", and a URL that does not parse is shown as "(unparseable URL)", never
// as given (it may hold a password the parser could not find).
func URL(raw string) string {
	if raw == "" {
		return ""
	}
	u, err := url.Parse(raw)
	if err != nil {
		return "(unparseable URL)"
	}
	return u.Redacted()
}
