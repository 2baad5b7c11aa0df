// SPDX-License-Identifier: Apache-2.0

package oidc

import (
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/rsa"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	jose "github.com/go-jose/go-jose/v4"
)

// allowedAlgorithms are the signature algorithms a token may use: the
// asymmetric ones. none and the HMAC family (HS*) are never accepted, so
// a token "signed" with the issuer's public key as an HMAC secret fails
// before any key is looked at.
var allowedAlgorithms = []jose.SignatureAlgorithm{
	jose.RS256, jose.RS384, jose.RS512,
	jose.PS256, jose.PS384, jose.PS512,
	jose.ES256, jose.ES384, jose.ES512,
	jose.EdDSA,
}

// AllowedAlgorithms names the signature algorithms tokens may use.
func AllowedAlgorithms() []string {
	out := make([]string, len(allowedAlgorithms))
	for i, a := range allowedAlgorithms {
		out[i] = string(a)
	}
	return out
}

// Bounds of a key set.
const (
	// maxKeys bounds the keys kept from one JWKS; real issuers publish a
	// handful (Entra ID's common set about a dozen).
	maxKeys = 64
	// minRSABits is the smallest RSA modulus accepted.
	minRSABits = 2048
)

// parseKeySet reads a JWKS document: the usable signing keys of its first
// maxKeys entries. A key of a type the gateway does not verify with (a
// symmetric key, a private key, an encryption key, an RSA key under 2048
// bits, a type go-jose does not know) is skipped, as RFC 7517 section 5
// says; a set without any usable key is an error, so the keys in use stay.
func parseKeySet(body []byte) ([]jose.JSONWebKey, error) {
	var doc struct {
		Keys []json.RawMessage `json:"keys"`
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		return nil, fmt.Errorf("not a JWKS document: %w", err)
	}
	var keys []jose.JSONWebKey
	for i, raw := range doc.Keys {
		if i == maxKeys {
			break
		}
		var key jose.JSONWebKey
		if err := key.UnmarshalJSON(raw); err != nil {
			continue
		}
		if usable(key) {
			keys = append(keys, key)
		}
	}
	if len(keys) == 0 {
		return nil, errors.New("the JWKS holds no usable signing key (RSA of 2048 bits or more, EC or Ed25519 public keys)")
	}
	return keys, nil
}

// usable reports whether key may verify tokens: a public asymmetric key
// for signatures, with an algorithm (when it names one) on the allow-list.
func usable(key jose.JSONWebKey) bool {
	if key.Use != "" && key.Use != "sig" {
		return false
	}
	if key.Algorithm != "" && !allowed(jose.SignatureAlgorithm(key.Algorithm)) {
		return false
	}
	switch k := key.Key.(type) {
	case *rsa.PublicKey:
		return k.N.BitLen() >= minRSABits
	case *ecdsa.PublicKey, ed25519.PublicKey:
		return true
	}
	return false
}

// allowed reports whether alg is on the allow-list.
func allowed(alg jose.SignatureAlgorithm) bool { return slices.Contains(allowedAlgorithms, alg) }

// fits reports whether key can verify a signature of alg: the algorithm
// the key names (if any) is alg, and the key's type is alg's family.
func fits(key jose.JSONWebKey, alg jose.SignatureAlgorithm) bool {
	if key.Algorithm != "" && key.Algorithm != string(alg) {
		return false
	}
	switch key.Key.(type) {
	case *rsa.PublicKey:
		return alg[0] == 'R' || alg[0] == 'P'
	case *ecdsa.PublicKey:
		return alg[0] == 'E' && alg != jose.EdDSA
	case ed25519.PublicKey:
		return alg == jose.EdDSA
	}
	return false
}
