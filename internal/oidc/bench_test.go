// SPDX-License-Identifier: Apache-2.0

package oidc

import (
	"context"
	"syscall"
	"testing"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/oidc/oidctest"
)

// processCPU is the CPU time the process used so far (user and system):
// on a machine shared with other work, ns/op measures the wait for a core
// as well, CPU time per operation only the work.
func processCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkVerify is what one verified token costs once the issuer's keys
// are fetched: the shape check, the signature, the claims.
func BenchmarkVerify(b *testing.B) {
	for _, tc := range []struct {
		name string
		key  func() oidctest.Key
	}{
		{"RS256", func() oidctest.Key { return newRSAKey(b, 0, "k1") }},
		{"ES256", func() oidctest.Key { return newECKey(b, "e1") }},
	} {
		b.Run(tc.name, func(b *testing.B) {
			key := tc.key()
			iss := oidctest.NewIssuer(b, key)
			v, clock := testVerifier(b, iss, Options{Scopes: []string{"dagu.read"}})
			token := mint(b, key, goodClaims(iss.URL, clock.Now()))
			if _, err := v.Verify(context.Background(), token, testResource); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			cpu := processCPU(b)
			for b.Loop() {
				if _, err := v.Verify(context.Background(), token, testResource); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(processCPU(b)-cpu)/float64(b.N), "cpu-ns/op")
		})
	}
}

// BenchmarkUnknownKeyIDs sends tokens whose key IDs the issuer never
// published, from every core at once, on the real clock: it reports the
// JWKS fetches they caused per 1,000 tokens (at most one per
// DefaultMinRefresh of the run, however many tokens).
func BenchmarkUnknownKeyIDs(b *testing.B) {
	key := newRSAKey(b, 0, "k1")
	iss := oidctest.NewIssuer(b, key)
	v, err := New(Options{Issuer: iss.URL})
	if err != nil {
		b.Fatal(err)
	}
	tokens := unknownKidTokens(b, iss.URL, time.Now(), 1000)
	if _, err := v.Verify(context.Background(), mint(b, key, goodClaims(iss.URL, time.Now())), testResource); err != nil {
		b.Fatal(err)
	}
	before := iss.JWKSHits.Load()
	b.ReportAllocs()
	b.ResetTimer()
	cpu := processCPU(b)
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			if _, err := v.Verify(context.Background(), tokens[i%len(tokens)], testResource); err == nil {
				b.Error("a token with an unknown key ID verified")
			}
			i++
		}
	})
	b.ReportMetric(float64(processCPU(b)-cpu)/float64(b.N), "cpu-ns/op")
	b.ReportMetric(float64(iss.JWKSHits.Load()-before)*1000/float64(b.N), "fetches/1000tokens")
}
