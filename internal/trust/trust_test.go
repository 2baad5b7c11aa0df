// SPDX-License-Identifier: Apache-2.0

package trust

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/redact"
	"github.com/dagu-mcp-gateway/gateway/internal/reqctx"
	"github.com/dagu-mcp-gateway/gateway/internal/testkit"
)

// fakeDagu accepts one key, says "no surface" to another, refuses the
// rest, and counts the checks it was asked.
type fakeDagu struct {
	checks atomic.Int64
	down   atomic.Bool
}

const (
	goodKey    = "dagu_good_key_0123456789"
	mcpOnlyKey = "dagu_mcp_only_key_0123456789"
)

func (f *fakeDagu) check(ctx context.Context, credential string) (Verdict, error) {
	f.checks.Add(1)
	if sent, _ := reqctx.Credential(ctx); sent != credential {
		return Unchecked, errors.New("the check was not sent with the caller's credential")
	}
	switch {
	case f.down.Load():
		return Unchecked, errors.New("connection refused")
	case credential == goodKey:
		return Verified, nil
	case credential == mcpOnlyKey:
		return LacksSurface, nil
	}
	return Refused, nil
}

// newVerifier returns a verifier that asks a new fakeDagu and reads a
// manual clock, with both.
func newVerifier(t *testing.T) (*Verifier, *fakeDagu, *testkit.Clock) {
	t.Helper()
	dagu, clk := &fakeDagu{}, testkit.NewClock(time.Unix(1_000_000, 0))
	v, err := New(Options{Check: dagu.check, Now: clk.Now})
	if err != nil {
		t.Fatal(err)
	}
	return v, dagu, clk
}

// TestFreshKeysBuyOneBucketPerAddress: a new random key on every request
// reaches Dagu only as often as the address's bucket allows (issue 20: 300
// of 300 reached Dagu); every such caller shares one name, so per-caller
// limits apply to the address; another address has its own bucket.
func TestFreshKeysBuyOneBucketPerAddress(t *testing.T) {
	t.Parallel()
	v, dagu, clk := newVerifier(t)
	ctx := context.Background()
	callers := map[string]bool{}
	for i := range 300 {
		d := v.Decide(ctx, fmt.Sprintf("dagu_random_%d", i), "203.0.113.7:40000")
		if d.Verdict == Verified {
			t.Fatalf("a random key was verified")
		}
		callers[d.Caller] = true
	}
	if got := dagu.checks.Load(); got != DefaultChecksBurst {
		t.Errorf("300 fresh keys from one address made %d checks, want the burst of %d", got, DefaultChecksBurst)
	}
	if len(callers) != 1 || !callers["unverified:203.0.113.7"] {
		t.Errorf("unverified callers are named %v, want one name for the address", callers)
	}
	v.Decide(ctx, "dagu_random_other", "198.51.100.9:1234")
	if got := dagu.checks.Load(); got != DefaultChecksBurst+1 {
		t.Errorf("another address: %d checks, want its own bucket", got)
	}
	clk.Advance(time.Second)
	v.Decide(ctx, "dagu_random_later", "203.0.113.7:40001")
	if got := dagu.checks.Load(); got != DefaultChecksBurst+2 {
		t.Errorf("a second later: %d checks, want the bucket refilled by one", got)
	}
}

// TestVerdictsAreCachedBothWays: an accepted and a refused key are each
// checked once per TTL; the accepted one names the caller by its key.
func TestVerdictsAreCachedBothWays(t *testing.T) {
	t.Parallel()
	v, dagu, clk := newVerifier(t)
	ctx := context.Background()
	for range 10 {
		if d := v.Decide(ctx, goodKey, "10.0.0.1:1"); d.Verdict != Verified || d.Caller != "key:"+redact.Fingerprint(goodKey) {
			t.Fatalf("good key: %+v", d)
		}
		if d := v.Decide(ctx, "dagu_bogus_token_xyz", "10.0.0.1:1"); d.Verdict != Refused || d.Caller != "unverified:10.0.0.1" {
			t.Fatalf("bogus key: %+v", d)
		}
		if d := v.Decide(ctx, mcpOnlyKey, "10.0.0.1:1"); d.Verdict != LacksSurface {
			t.Fatalf("mcp-only key: %+v", d)
		}
	}
	if got := dagu.checks.Load(); got != 3 {
		t.Fatalf("%d checks for three keys within their TTLs, want 3", got)
	}
	clk.Advance(DefaultRefusedTTL)
	v.Decide(ctx, "dagu_bogus_token_xyz", "10.0.0.1:1")
	v.Decide(ctx, goodKey, "10.0.0.1:1")
	if got := dagu.checks.Load(); got != 4 {
		t.Errorf("after the refusal TTL: %d checks, want the refused key checked again and the accepted one not", got)
	}
	clk.Advance(DefaultAcceptedTTL)
	v.Decide(ctx, goodKey, "10.0.0.1:1")
	if got := dagu.checks.Load(); got != 5 {
		t.Errorf("after the acceptance TTL: %d checks, want the accepted key checked again", got)
	}
}

// TestNoCredentialAndOutages: a request without a key is unchecked and
// costs no check; an outage gives no verdict and caches none.
func TestNoCredentialAndOutages(t *testing.T) {
	t.Parallel()
	v, dagu, _ := newVerifier(t)
	ctx := context.Background()
	if d := v.Decide(ctx, "", "[2001:db8::1]:443"); d.Verdict != Unchecked || d.Caller != "unverified:2001:db8::1" {
		t.Errorf("no key: %+v", d)
	}
	if dagu.checks.Load() != 0 {
		t.Errorf("a request without a key was checked")
	}
	dagu.down.Store(true)
	if d := v.Decide(ctx, goodKey, "10.0.0.1:1"); d.Verdict != Unchecked {
		t.Errorf("Dagu down: %+v, want unchecked", d)
	}
	dagu.down.Store(false)
	if d := v.Decide(ctx, goodKey, "10.0.0.1:1"); d.Verdict != Verified {
		t.Errorf("Dagu back: %+v, want verified (the outage was not cached)", d)
	}
}

// TestConcurrentRequestsShareOneCheck: many requests with one new key at
// once cost Dagu one check.
func TestConcurrentRequestsShareOneCheck(t *testing.T) {
	t.Parallel()
	dagu := &fakeDagu{}
	release := make(chan struct{})
	v, err := New(Options{Check: func(ctx context.Context, c string) (Verdict, error) {
		<-release
		return dagu.check(ctx, c)
	}})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if d := v.Decide(context.Background(), goodKey, "10.0.0.1:1"); d.Verdict != Verified {
				t.Errorf("decision %+v", d)
			}
		}()
	}
	close(release)
	wg.Wait()
	if got := dagu.checks.Load(); got != 1 {
		t.Errorf("%d checks, want 1", got)
	}
}

// TestIPv6AddressesOfOneNetworkShareABucket: a host given a /64 cannot buy
// a fresh bucket of checks by sending each new key from another address
// of its network; another /64 and IPv4 keep their own buckets.
func TestIPv6AddressesOfOneNetworkShareABucket(t *testing.T) {
	t.Parallel()
	v, dagu, _ := newVerifier(t)
	ctx := context.Background()
	for i := range 300 {
		v.Decide(ctx, fmt.Sprintf("dagu_random_%d", i), fmt.Sprintf("[2001:db8:1:2::%x]:443", i+1))
	}
	if got := dagu.checks.Load(); got != DefaultChecksBurst {
		t.Errorf("300 fresh keys from 300 addresses of one /64 made %d checks, want the burst of %d", got, DefaultChecksBurst)
	}
	if d := v.Decide(ctx, "dagu_random_x", "[2001:db8:1:2::1]:443"); d.Caller != "unverified:2001:db8:1:2::1" {
		t.Errorf("caller = %q, want the address itself", d.Caller)
	}
	v.Decide(ctx, "dagu_random_other_net", "[2001:db8:1:3::1]:443")
	v.Decide(ctx, "dagu_random_v4", "192.0.2.10:1")
	if got := dagu.checks.Load(); got != DefaultChecksBurst+2 {
		t.Errorf("another /64 and an IPv4 address: %d checks, want one each", got)
	}
}
