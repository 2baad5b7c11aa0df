// SPDX-License-Identifier: Apache-2.0

package trust

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/testkit"
)

// TestManyAddressesShareOneCeilingOfChecks: fresh keys from many
// addresses, each within its own bucket, reach Dagu only as often as the
// process-wide bucket allows (each address's bucket alone let every one
// of them through); the ceiling refills with time, and an address over
// its own limit does not spend it.
func TestManyAddressesShareOneCeilingOfChecks(t *testing.T) {
	t.Parallel()
	v, dagu, clk := newVerifier(t)
	ctx := context.Background()
	for i := range 5 * DefaultMaxChecksBurst {
		addr := fmt.Sprintf("10.%d.%d.1:1", i/250, i%250)
		if d := v.Decide(ctx, fmt.Sprintf("dagu_made_up_%d", i), addr); d.Verdict == Verified {
			t.Fatal("a made-up key was verified")
		}
	}
	if got := dagu.checks.Load(); got != DefaultMaxChecksBurst {
		t.Fatalf("%d addresses made %d checks, want the process-wide burst of %d", 5*DefaultMaxChecksBurst, got, DefaultMaxChecksBurst)
	}
	clk.Advance(time.Second)
	for i := range 5 * DefaultMaxChecksBurst {
		v.Decide(ctx, fmt.Sprintf("dagu_made_up_later_%d", i), fmt.Sprintf("172.16.%d.%d:1", i/250, i%250))
	}
	if got, want := dagu.checks.Load(), int64(DefaultMaxChecksBurst+DefaultMaxChecksPerSecond); got != want {
		t.Fatalf("a second later: %d checks, want %d (refilled by one second's rate)", got, want)
	}
}

// TestAnAddressOverItsLimitDoesNotSpendTheCeiling: the address's own
// bucket is asked first, so one address sending made-up keys without end
// leaves the process-wide bucket to everyone else.
func TestAnAddressOverItsLimitDoesNotSpendTheCeiling(t *testing.T) {
	t.Parallel()
	dagu, clk := &fakeDagu{}, testkit.NewClock(time.Unix(1_000_000, 0))
	v, err := New(Options{Check: dagu.check, Now: clk.Now, MaxChecksBurst: DefaultChecksBurst + 1, MaxChecksPerSecond: 1})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for i := range 100 {
		v.Decide(ctx, fmt.Sprintf("dagu_made_up_%d", i), "203.0.113.7:1")
	}
	if d := v.Decide(ctx, goodKey, "198.51.100.9:1"); d.Verdict != Verified {
		t.Fatalf("another address's key was not checked: %+v (checks %d)", d, dagu.checks.Load())
	}
}

// TestAKeyDaguAcceptedIsRecheckedPastTheCeiling: when the acceptance of a
// key expires while made-up keys from many addresses hold the
// process-wide bucket empty, the key is still checked again (within its
// own address's bucket) and stays verified; it was left unchecked, so
// every passthrough caller whose acceptance expired lost its reads for as
// long as the flood lasted. A made-up key meanwhile still waits for the
// ceiling.
func TestAKeyDaguAcceptedIsRecheckedPastTheCeiling(t *testing.T) {
	t.Parallel()
	v, dagu, clk := newVerifier(t)
	ctx := context.Background()
	if d := v.Decide(ctx, goodKey, "198.51.100.9:1"); d.Verdict != Verified {
		t.Fatalf("good key: %+v", d)
	}
	clk.Advance(DefaultAcceptedTTL)
	flood := func(round string) {
		for i := range 5 * DefaultMaxChecksBurst {
			v.Decide(ctx, fmt.Sprintf("dagu_made_up_%s_%d", round, i), fmt.Sprintf("10.%d.%d.1:1", i/250, i%250))
		}
	}
	flood("a")
	before := dagu.checks.Load()
	if d := v.Decide(ctx, goodKey, "198.51.100.9:1"); d.Verdict != Verified || dagu.checks.Load() != before+1 {
		t.Fatalf("good key after its acceptance expired, ceiling spent: %+v after %d checks, want verified after one", d, dagu.checks.Load()-before)
	}
	if d := v.Decide(ctx, "dagu_made_up_late", "203.0.113.7:1"); d.Verdict != Unchecked || dagu.checks.Load() != before+1 {
		t.Fatalf("a made-up key passed the spent ceiling: %+v", d)
	}
}
