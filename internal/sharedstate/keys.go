// SPDX-License-Identifier: Apache-2.0

package sharedstate

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
)

// Key names one shared cache entry the way the local caches name theirs:
// which cache (Kind), the credential's fingerprint, and the rest of the
// local key (Parts). Parts are hashed into the Redis key, so neither their
// length nor their content reaches Redis as such.
type Key struct {
	// Kind names the cache, e.g. "run" or "spec": 1 to 32 of a-z, 0-9, _
	// and -. It is also a metric label, so it must be one of a few
	// constants, never request data.
	Kind string
	// Fingerprint identifies the credential that read the value, as the
	// REST client's Fingerprint gives it: "anon" or 32 to 64 lowercase hex
	// digits, optionally after "caller:" (a passthrough caller's key). Any
	// other text is refused, so a raw credential can never become a key.
	Fingerprint string
	// Parts are the rest of the local cache key, in order.
	Parts []string
}

// errBadKey reports a Key the package refuses to use.
var errBadKey = errors.New("shared state: invalid key")

// redisKey returns the Redis key of k under the store's prefix.
func (s *Store) redisKey(k Key) (string, error) {
	if !validKind(k.Kind) {
		return "", fmt.Errorf("%w: kind %q", errBadKey, k.Kind)
	}
	if !validFingerprint(k.Fingerprint) {
		return "", fmt.Errorf("%w: the fingerprint is not a fingerprint", errBadKey)
	}
	return s.prefix + "c:" + k.Kind + ":" + k.Fingerprint + ":" + hashParts(k.Parts), nil
}

// hashParts hashes the parts with their lengths, so ("ab","c") and
// ("a","bc") differ.
func hashParts(parts []string) string {
	h := sha256.New()
	var n [8]byte
	for _, p := range parts {
		binary.BigEndian.PutUint64(n[:], uint64(len(p)))
		h.Write(n[:])
		h.Write([]byte(p))
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// hashName hashes a name (a caller, a lock) into a fixed-length key part
// of 128 bits: callers' rate-limit buckets must not collide.
func hashName(name string) string {
	sum := sha256.Sum256([]byte(name))
	return hex.EncodeToString(sum[:16])
}

func validKind(kind string) bool {
	if kind == "" || len(kind) > 32 {
		return false
	}
	for _, c := range []byte(kind) {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

func validFingerprint(fp string) bool {
	fp = strings.TrimPrefix(fp, "caller:")
	if fp == "anon" {
		return true
	}
	if len(fp) < 32 || len(fp) > 64 {
		return false
	}
	for _, c := range []byte(fp) {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}
