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

// Every key is
//
//	dgw:v2:{<scope>:<family>:<id>}[<suffix>]
//
// where scope is a hash of the store's scope (the Dagu server, its instance
// name and the gateway version), family says what the key holds (c: a
// cache entry, rl: a caller's rate-limit bucket, sem: a semaphore) and id
// names one of them. The braces are a Redis Cluster hash tag: Redis
// Cluster places a key by the text between its first { and the } after
// it, so every key of one thing lands in one slot, and an operation on it
// (a script, a lock next to its value) never spans two. The id never holds
// a brace: it is a kind, a fingerprint and hashes, all checked.
const keyVersion = "dgw:v2:"

// Key families.
const (
	familyCache     = "c"
	familyRateLimit = "rl"
	familySemaphore = "sem"
)

// Suffixes of the keys that live beside a cache entry, in its slot.
const suffixLock = ":lock" // the entry's coalescing lock

// taggedKey is the key of one thing of a family under the store's scope;
// "" for a nil store, which asks no server.
func (s *Store) taggedKey(family, id string) string {
	if s == nil {
		return ""
	}
	return keyVersion + "{" + s.scope + ":" + family + ":" + id + "}"
}

// redisKey returns the Redis key of k's cache entry.
func (s *Store) redisKey(k Key) (string, error) {
	if !validKind(k.Kind) {
		return "", fmt.Errorf("%w: kind %q", errBadKey, k.Kind)
	}
	if !validFingerprint(k.Fingerprint) {
		return "", fmt.Errorf("%w: the fingerprint is not a fingerprint", errBadKey)
	}
	return s.taggedKey(familyCache, k.Kind+":"+k.Fingerprint+":"+hashParts(k.Parts)), nil
}

// scopeTag is a scope as keys carry it: a hash, so gateways in front of
// different Dagus never share entries and no URL reaches Redis.
func scopeTag(scope string) string {
	sum := sha256.Sum256([]byte(scope))
	return hex.EncodeToString(sum[:6])
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
