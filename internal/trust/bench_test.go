// SPDX-License-Identifier: Apache-2.0

package trust

import (
	"context"
	"strconv"
	"testing"
)

// BenchmarkDecideKnownKey is the cost of a request whose key Dagu
// accepted: one fingerprint and one cache hit.
func BenchmarkDecideKnownKey(b *testing.B) {
	v := newVerifierB(b)
	ctx := context.Background()
	v.Decide(ctx, goodKey, "10.0.0.1:1")
	b.ReportAllocs()
	for b.Loop() {
		if d := v.Decide(ctx, goodKey, "10.0.0.1:1"); d.Verdict != Verified {
			b.Fatal(d)
		}
	}
}

// BenchmarkDecideMadeUpKeys is the cost of a request with a new made-up
// key from one address whose lane is spent: what a flood costs the
// gateway per request.
func BenchmarkDecideMadeUpKeys(b *testing.B) {
	v := newVerifierB(b)
	ctx := context.Background()
	i := 0
	b.ReportAllocs()
	for b.Loop() {
		i++
		v.Decide(ctx, "dagu_made_up_"+strconv.Itoa(i), "203.0.113.7:1")
	}
}

// newVerifierB is a verifier asking a new fakeDagu, on the real clock.
func newVerifierB(b *testing.B) *Verifier {
	b.Helper()
	v, err := New(Options{Check: (&fakeDagu{}).check})
	if err != nil {
		b.Fatal(err)
	}
	return v
}
