// SPDX-License-Identifier: Apache-2.0

package oidc

import "strings"

// LooksLikeJWT reports whether token has the shape of a JWS in compact
// serialization: three parts separated by dots, header and payload not
// empty, every character of the base64url alphabet (no padding). It
// decides nothing but whether parsing is worth trying; the front door
// uses it to tell a JWT from a static token or a Dagu key.
func LooksLikeJWT(token string) bool {
	header, rest, ok := strings.Cut(token, ".")
	if !ok || header == "" {
		return false
	}
	payload, signature, ok := strings.Cut(rest, ".")
	if !ok || payload == "" || signature == "" {
		return false
	}
	return base64URL(header) && base64URL(payload) && base64URL(signature)
}

// base64URL reports whether s is made of the base64url alphabet only.
func base64URL(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}
