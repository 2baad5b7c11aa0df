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

// fakeDagu accepts the keys in accept (with their identities), says "no
// surface" to mcpOnlyKey, refuses the rest, and counts the checks it was
// asked.
type fakeDagu struct {
	checks  atomic.Int64
	down    atomic.Bool
	mu      sync.Mutex
	revoked map[string]bool
}

const (
	goodKey    = "dagu_good_key_0123456789"
	otherKey   = "dagu_other_good_key_0123456789"
	mcpOnlyKey = "dagu_mcp_only_key_0123456789"
)

// identities are the keys fakeDagu accepts and whose they are ("": the
// release cannot say).
var identities = map[string]string{goodKey: "", otherKey: ""}

func (f *fakeDagu) check(ctx context.Context, credential string) (Result, error) {
	f.checks.Add(1)
	if sent, _ := reqctx.Credential(ctx); sent != credential {
		return Result{}, errors.New("the check was not sent with the caller's credential")
	}
	f.mu.Lock()
	revoked := f.revoked[credential]
	f.mu.Unlock()
	identity, known := identities[credential]
	switch {
	case f.down.Load():
		return Result{}, errors.New("connection refused")
	case known && !revoked:
		return Result{Verdict: Verified, Identity: identity}, nil
	case credential == mcpOnlyKey:
		return Result{Verdict: LacksSurface}, nil
	}
	return Result{Verdict: Refused}, nil
}

func (f *fakeDagu) revoke(key string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.revoked == nil {
		f.revoked = map[string]bool{}
	}
	f.revoked[key] = true
}

// newVerifier returns a verifier that asks a new fakeDagu and reads a
// hand-moved clock, with both; edit changes its options.
func newVerifier(t *testing.T, edit ...func(*Options)) (*Verifier, *fakeDagu, *testkit.Clock) {
	t.Helper()
	dagu, clk := &fakeDagu{}, testkit.NewClock(time.Unix(1_000_000, 0))
	o := Options{Check: dagu.check, Now: clk.Now}
	for _, e := range edit {
		e(&o)
	}
	v, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	return v, dagu, clk
}

// flood sends n made-up keys, the i-th from addr(i).
func flood(v *Verifier, round string, n int, addr func(i int) string) {
	for i := range n {
		v.Decide(context.Background(), fmt.Sprintf("dagu_made_up_%s_%d", round, i), addr(i))
	}
}

func ipv4(i int) string { return fmt.Sprintf("10.%d.%d.1:1", i/250, i%250) }

// oneAddress is every caller behind one ingress.
func oneAddress(int) string { return "203.0.113.7:40000" }

// TestVerdictsAreCachedBothWays: an accepted and a refused key are each
// checked once per lifetime; the accepted one names the caller by its key.
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
		t.Fatalf("%d checks for three keys within their lifetimes, want 3", got)
	}
	clk.Advance(DefaultRefusedTTL)
	v.Decide(ctx, "dagu_bogus_token_xyz", "10.0.0.1:1")
	v.Decide(ctx, goodKey, "10.0.0.1:1")
	if got := dagu.checks.Load(); got != 4 {
		t.Errorf("after the refusal's lifetime: %d checks, want the refused key checked again and the accepted one not", got)
	}
}

// TestKnownKeysAreServedAndRecheckedInTheBackground: once its acceptance
// is older than RecheckAfter, a known key is still verified at once, and
// checked again in the background; Dagu's refusal then ends it, an outage
// does not (the stale acceptance stays, so the next read starts another
// background check: three in all once it has ended).
func TestKnownKeysAreServedAndRecheckedInTheBackground(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name       string
		then       func(*fakeDagu)
		wantAfter  Verdict
		wantChecks int64
	}{
		{"still accepted", func(*fakeDagu) {}, Verified, 2},
		{"revoked", func(d *fakeDagu) { d.revoke(goodKey) }, Refused, 2},
		{"Dagu down", func(d *fakeDagu) { d.down.Store(true) }, Verified, 3},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			v, dagu, clk := newVerifier(t)
			ctx := context.Background()
			v.Decide(ctx, goodKey, "10.0.0.1:1")
			tt.then(dagu)
			clk.Advance(DefaultRecheckAfter + time.Hour)
			if d := v.Decide(ctx, goodKey, "10.0.0.1:1"); d.Verdict != Verified {
				t.Fatalf("a known key past its recheck: %+v, want verified at once", d)
			}
			v.accepted.WaitRefreshes()
			if d := v.Decide(ctx, goodKey, "10.0.0.1:1"); d.Verdict != tt.wantAfter {
				t.Errorf("after the background check: %v, want %v", d.Verdict, tt.wantAfter)
			}
			v.accepted.WaitRefreshes()
			if got := dagu.checks.Load(); got != tt.wantChecks {
				t.Errorf("%d checks, want %d", got, tt.wantChecks)
			}
		})
	}
}

// TestKnownKeysNeverWaitForTheLane: however made-up keys spend the lane
// (all from the known key's own address, from many addresses, or holding
// every check in flight), a key Dagu accepted within KnownFor stays
// verified, also once its acceptance is due for a check (issue 28 #1: 0
// of 20 reads once its 60 s verdict expired).
func TestKnownKeysNeverWaitForTheLane(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name  string
		spend func(v *Verifier)
	}{
		{"one address", func(v *Verifier) { flood(v, "a", 500, oneAddress) }},
		{"many addresses", func(v *Verifier) { flood(v, "b", 2_000, ipv4) }},
		{"one /48", func(v *Verifier) {
			flood(v, "c", 1_024, func(i int) string { return fmt.Sprintf("[2001:db8:7:%x::1]:443", i) })
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			v, _, clk := newVerifier(t)
			ctx := context.Background()
			if d := v.Decide(ctx, goodKey, oneAddress(0)); d.Verdict != Verified {
				t.Fatalf("good key: %+v", d)
			}
			for _, age := range []time.Duration{DefaultRecheckAfter, time.Hour, DefaultKnownFor - 2*time.Hour} {
				clk.Advance(age)
				tt.spend(v)
				for i := range 20 {
					if d := v.Decide(ctx, goodKey, oneAddress(0)); d.Verdict != Verified {
						t.Fatalf("after %s, read %d: %+v, want verified", age, i, d)
					}
				}
				v.accepted.WaitRefreshes()
			}
		})
	}
}

// TestAKeyIsKnownForHours: past RecheckAfter and KnownFor since its last
// acceptance (no read kept it checked), a key is unknown again and waits
// for the lane like any other.
func TestAKeyIsKnownForHours(t *testing.T) {
	t.Parallel()
	v, _, clk := newVerifier(t)
	ctx := context.Background()
	v.Decide(ctx, goodKey, oneAddress(0))
	clk.Advance(DefaultRecheckAfter + DefaultKnownFor)
	flood(v, "a", 100, oneAddress)
	if d := v.Decide(ctx, goodKey, oneAddress(0)); d.Verdict != Unchecked {
		t.Errorf("a key idle past its known period: %v, want unchecked behind the spent lane", d.Verdict)
	}
}

// TestUnknownKeysShareOneBoundedLane: made-up keys reach Dagu only as
// often as the narrowest of their address's, /64's, /48's and the
// process's buckets allow; another address keeps its own bucket.
func TestUnknownKeysShareOneBoundedLane(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name string
		n    int
		addr func(int) string
		want int64
	}{
		{"one IPv4 address", 300, oneAddress, DefaultChecksBurst},
		{"one /64", 300, func(i int) string { return fmt.Sprintf("[2001:db8:1:2::%x]:443", i+1) }, DefaultChecksBurst},
		{"1,024 /64s of one /48", 1_024, func(i int) string { return fmt.Sprintf("[2001:db8:7:%x::1]:443", i) }, DefaultNetChecksBurst},
		{"many IPv4 addresses", 5 * DefaultMaxChecksBurst, ipv4, DefaultMaxChecksBurst + DefaultNewcomerChecksBurst},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			v, dagu, _ := newVerifier(t)
			flood(v, "x", tt.n, tt.addr)
			if got := dagu.checks.Load(); got != tt.want {
				t.Errorf("%d made-up keys made %d checks, want %d", tt.n, got, tt.want)
			}
		})
	}
}

// TestTheLaneRefills: a second later an address has one more check.
func TestTheLaneRefills(t *testing.T) {
	t.Parallel()
	v, dagu, clk := newVerifier(t)
	flood(v, "a", 100, oneAddress)
	clk.Advance(time.Second)
	flood(v, "b", 100, oneAddress)
	if got := dagu.checks.Load(); got != DefaultChecksBurst+1 {
		t.Errorf("%d checks, want the burst and one more", got)
	}
}

// TestNewAddressesAreServedFirst: while made-up keys from 1,000
// addresses (or from 1,024 /64s of one /48) keep the process's bucket
// empty, a real caller from an address that asked for nothing is checked
// at its first try (issue 28 #4: 16 of 20 new real callers failed), once
// the flood's addresses have had their tries.
func TestNewAddressesAreServedFirst(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name string
		addr func(int) string
	}{
		{"many IPv4 addresses", ipv4},
		{"one /48", func(i int) string { return fmt.Sprintf("[2001:db8:7:%x::1]:443", i) }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			v, _, clk := newVerifier(t)
			ctx := context.Background()
			for sec := range DefaultNewcomerTries + 20 {
				flood(v, fmt.Sprint(sec), 1_000, tt.addr)
				if sec >= DefaultNewcomerTries {
					newcomer := fmt.Sprintf("192.0.2.%d:5000", sec)
					if d := v.Decide(ctx, goodKey, newcomer); d.Verdict != Verified {
						t.Fatalf("second %d: a new real caller got %v, want verified at its first try", sec, d.Verdict)
					}
					v.accepted.Remove(redact.Fingerprint(goodKey))
				}
				clk.Advance(time.Second)
			}
		})
	}
}

// TestARetriedKeyGetsInBehindOneAddress: all callers behind one address,
// made-up keys (each sent once) keeping the address's bucket empty: a new
// real key is refused a check at its first try and checked at its second
// (issue 28 #1: new real callers 0 of 5 within 5 tries). Made-up keys
// sent again take the same retries; only --trusted-proxies tells the
// callers apart.
func TestARetriedKeyGetsInBehindOneAddress(t *testing.T) {
	t.Parallel()
	v, _, clk := newVerifier(t)
	ctx := context.Background()
	for sec := range 20 {
		flood(v, fmt.Sprint(sec), 500, oneAddress)
		if d := v.Decide(ctx, goodKey, oneAddress(0)); d.Verdict != Unchecked {
			t.Fatalf("second %d, first try: %v, want unchecked (the address's bucket is spent)", sec, d.Verdict)
		}
		if d := v.Decide(ctx, goodKey, oneAddress(0)); d.Verdict != Verified {
			t.Fatalf("second %d, second try: %v, want verified", sec, d.Verdict)
		}
		v.accepted.Remove(redact.Fingerprint(goodKey))
		clk.Advance(time.Second)
	}
}

// TestTheReserveIsForNewcomers: an address that used up its tries does
// not take from the reserve once the process's bucket is empty; a new
// address does.
func TestTheReserveIsForNewcomers(t *testing.T) {
	t.Parallel()
	v, _, _ := newVerifier(t, func(o *Options) { o.MaxChecksBurst = 1 })
	ctx := context.Background()
	for i := range DefaultNewcomerTries {
		v.Decide(ctx, fmt.Sprintf("dagu_made_up_%d", i), "192.0.2.1:1")
	}
	if d := v.Decide(ctx, goodKey, "192.0.2.1:1"); d.Verdict != Unchecked {
		t.Errorf("an address past its tries took the reserve: %+v", d)
	}
	if d := v.Decide(ctx, goodKey, "192.0.2.2:1"); d.Verdict != Verified {
		t.Errorf("a newcomer was not served from the reserve: %+v", d)
	}
}

// TestChecksInFlightAreBounded: while MaxChecksInFlight checks of unknown
// keys wait for Dagu, another unknown key is not checked, and a known key
// is served.
func TestChecksInFlightAreBounded(t *testing.T) {
	t.Parallel()
	dagu := &fakeDagu{}
	release, started := make(chan struct{}), make(chan struct{}, 100)
	v, err := New(Options{Now: testkit.NewClock(time.Unix(1_000_000, 0)).Now, MaxChecksInFlight: 2,
		Check: func(ctx context.Context, c string) (Result, error) {
			if c != goodKey {
				started <- struct{}{}
				<-release
			}
			return dagu.check(ctx, c)
		}})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	v.Decide(ctx, goodKey, "10.0.0.1:1")
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Go(func() { v.Decide(ctx, fmt.Sprintf("dagu_slow_%d", i), fmt.Sprintf("10.0.1.%d:1", i)) })
	}
	<-started
	<-started
	if d := v.Decide(ctx, "dagu_one_more", "10.0.2.1:1"); d.Verdict != Unchecked {
		t.Errorf("a third unknown key: %+v, want unchecked while two wait", d)
	}
	if d := v.Decide(ctx, goodKey, "10.0.0.1:1"); d.Verdict != Verified {
		t.Errorf("a known key: %+v, want verified", d)
	}
	close(release)
	wg.Wait()
}

// TestNoCredentialAndOutages: a request without a key is unchecked and
// costs no check; an outage gives no verdict and caches none.
func TestNoCredentialAndOutages(t *testing.T) {
	t.Parallel()
	v, dagu, _ := newVerifier(t)
	ctx := context.Background()
	if d := v.Decide(ctx, "", "[2001:db8::1]:443"); d.Verdict != Unchecked || d.Caller != "unverified:2001:db8::/64" {
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
	v, err := New(Options{Check: func(ctx context.Context, c string) (Result, error) {
		<-release
		return dagu.check(ctx, c)
	}})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 50 {
		wg.Go(func() {
			if d := v.Decide(context.Background(), goodKey, "10.0.0.1:1"); d.Verdict != Verified {
				t.Errorf("decision %+v", d)
			}
		})
	}
	close(release)
	wg.Wait()
	if got := dagu.checks.Load(); got != 1 {
		t.Errorf("%d checks, want 1", got)
	}
}

// TestSiblingsShareTheLaneNotTheVerdicts: a key one Dagu accepted is not
// known to a sibling of another Dagu, which asks its own Dagu, and made-up
// keys sent to both draw on one lane.
func TestSiblingsShareTheLaneNotTheVerdicts(t *testing.T) {
	t.Parallel()
	prod, prodDagu, _ := newVerifier(t)
	stagingDagu := &fakeDagu{}
	staging, err := prod.Sibling(t.Context(), stagingDagu.check)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if d := prod.Decide(reqctx.WithCredential(ctx, goodKey), goodKey, "10.0.0.1:1"); d.Verdict != Verified {
		t.Fatalf("prod: %+v", d)
	}
	stagingDagu.revoke(goodKey) // staging's Dagu does not know prod's key
	if d := staging.Decide(reqctx.WithCredential(ctx, goodKey), goodKey, "10.0.0.1:1"); d.Verdict != Refused {
		t.Fatalf("a key prod accepted is known on staging: %+v", d)
	}
	if prodDagu.checks.Load() != 1 || stagingDagu.checks.Load() != 1 {
		t.Fatalf("checks: prod %d, staging %d; want each Dagu asked once", prodDagu.checks.Load(), stagingDagu.checks.Load())
	}
	flood(prod, "p", 300, oneAddress)
	flood(staging, "s", 300, oneAddress)
	if got := prodDagu.checks.Load() + stagingDagu.checks.Load() - 2; got != DefaultChecksBurst {
		t.Errorf("made-up keys from one address to two Dagus made %d checks, want one lane's %d", got, DefaultChecksBurst)
	}
}

// TestSiblingChecksEndWithItsServer: a sibling's background check of a
// known key ends when the sibling's server ends (an instance removed by a
// reload), not with the process; before, WaitChecks would never return.
func TestSiblingChecksEndWithItsServer(t *testing.T) {
	t.Parallel()
	process, _, clk := newVerifier(t)
	server, stop := context.WithCancel(context.Background())
	started, ended := make(chan struct{}, 1), make(chan error, 1)
	var calls atomic.Int64
	sibling, err := process.Sibling(server, func(ctx context.Context, _ string) (Result, error) {
		if calls.Add(1) == 1 {
			return Result{Verdict: Verified, Identity: "alice"}, nil
		}
		started <- struct{}{}
		<-ctx.Done()
		ended <- ctx.Err()
		return Result{}, ctx.Err()
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if d := sibling.Decide(ctx, goodKey, "10.0.0.1:1"); d.Verdict != Verified {
		t.Fatalf("first check: %+v", d)
	}
	clk.Advance(DefaultRecheckAfter + time.Second)
	if d := sibling.Decide(ctx, goodKey, "10.0.0.1:1"); d.Verdict != Verified {
		t.Fatalf("a known key is not served while checked again: %+v", d)
	}
	<-started
	stop()
	sibling.WaitChecks()
	if err := <-ended; !errors.Is(err, context.Canceled) {
		t.Errorf("the background check ended with %v, want the server's end", err)
	}
}
