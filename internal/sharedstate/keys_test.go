// SPDX-License-Identifier: Apache-2.0

package sharedstate

import (
	"errors"
	"strings"
	"testing"
)

func TestRedisKeyRefusesWhatIsNotAFingerprint(t *testing.T) {
	t.Parallel()
	s := &Store{scope: scopeTag("http://dagu:8080")}
	cases := []struct {
		name string
		key  Key
		ok   bool
	}{
		{"anonymous", Key{Kind: "run", Fingerprint: "anon"}, true},
		{"key fingerprint", Key{Kind: "run", Fingerprint: "0123456789abcdef0123456789abcdef"}, true},
		{"passthrough caller", Key{Kind: "spec", Fingerprint: "caller:0123456789abcdef0123456789abcdef"}, true},
		{"64-bit fingerprint", Key{Kind: "run", Fingerprint: "0123456789abcdef"}, false},
		{"full SHA-256", Key{Kind: "spec", Fingerprint: strings.Repeat("ab", 32)}, true},
		{"a raw token", Key{Kind: "run", Fingerprint: "dagu_live_S3cr3tT0ken"}, false},
		{"too short", Key{Kind: "run", Fingerprint: "abc"}, false},
		{"upper case hex", Key{Kind: "run", Fingerprint: "0123456789ABCDEF0123456789ABCDEF"}, false},
		{"empty fingerprint", Key{Kind: "run"}, false},
		{"empty kind", Key{Fingerprint: "anon"}, false},
		{"kind with a colon", Key{Kind: "run:x", Fingerprint: "anon"}, false},
		{"kind too long", Key{Kind: strings.Repeat("k", 33), Fingerprint: "anon"}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			key, err := s.redisKey(c.key)
			if c.ok != (err == nil) {
				t.Fatalf("redisKey(%+v) = %q, %v; want ok=%v", c.key, key, err, c.ok)
			}
			if err != nil && !errors.Is(err, errBadKey) {
				t.Fatalf("error %v is not errBadKey", err)
			}
		})
	}
}

func TestRedisKeyHashesTheParts(t *testing.T) {
	t.Parallel()
	s := &Store{scope: scopeTag("http://dagu:8080")}
	key := func(parts ...string) string {
		k, err := s.redisKey(Key{Kind: "run", Fingerprint: "anon", Parts: parts})
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	secretLooking := key("nightly-report", "run-42")
	if strings.Contains(secretLooking, "nightly") || strings.Contains(secretLooking, "run-42") {
		t.Fatalf("key %q carries the parts as text", secretLooking)
	}
	if key("ab", "c") == key("a", "bc") {
		t.Fatal(`parts ("ab","c") and ("a","bc") share a key`)
	}
	if key(strings.Repeat("x", 10000)) == key(strings.Repeat("x", 10001)) || len(key(strings.Repeat("x", 10000))) > 128 {
		t.Fatal("long parts must hash to distinct, short keys")
	}
	if again := key("a"); again != key("a") {
		t.Fatal("one local key must give one shared key")
	}
	other := &Store{scope: scopeTag("http://other-dagu:8080")}
	k2, _ := other.redisKey(Key{Kind: "run", Fingerprint: "anon", Parts: []string{"a"}})
	if k2 == key("a") {
		t.Fatal("gateways in front of different Dagus must not share keys")
	}
}
