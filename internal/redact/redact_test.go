// SPDX-License-Identifier: Apache-2.0

package redact

import (
	"crypto/sha256"
	"strings"
	"testing"
)

func TestURL(t *testing.T) {
	t.Parallel()
	cases := map[string]string{
		"":                             "",
		"redis://:hunter2@db:6379/0":   "redis://:xxxxx@db:6379/0",
		"rediss://app:hunter2@db:6380": "rediss://app:xxxxx@db:6380",
		"redis://db:6379":              "redis://db:6379",
		"redis://db:6379/0?protocol=2": "redis://db:6379/0?protocol=2",
		"://not a url":                 "(unparseable URL)",
		"redis://:hunter2@db:6379/%zz": "(unparseable URL)",
	}
	for in, want := range cases {
		if got := URL(in); got != want {
			t.Errorf("URL(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestFingerprint: the whole SHA-256 of the secret in hex (a shortened one
// let two accepted credentials share a caller name and rate-limit bucket),
// never the secret itself.
func TestFingerprint(t *testing.T) {
	t.Parallel()
	cases := map[string]string{
		"":                         "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
		"dagu_collision_key_17130": "",
		"dagu_collision_key_81596": "",
	}
	seen := map[string]string{}
	for secret, want := range cases {
		got := Fingerprint(secret)
		if len(got) != 64 || (want != "" && got != want) || (secret != "" && strings.Contains(got, secret)) {
			t.Errorf("Fingerprint(%q) = %q", secret, got)
		}
		if other, ok := seen[got]; ok {
			t.Errorf("%q and %q share the fingerprint %s", secret, other, got)
		}
		seen[got] = secret
	}
}

// TestFingerprintOfDigest: a caller that hashed the secret already gets
// the fingerprint Fingerprint gives (the front door names callers so).
func TestFingerprintOfDigest(t *testing.T) {
	t.Parallel()
	const want = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
	if got := FingerprintOfDigest(sha256.Sum256(nil)); got != want {
		t.Errorf("FingerprintOfDigest(sha256 of nothing) = %q, want %q", got, want)
	}
}
