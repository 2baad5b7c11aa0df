// SPDX-License-Identifier: Apache-2.0

package trust

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/redact"
	"github.com/dagu-mcp-gateway/gateway/internal/testkit"
)

// Two keys whose SHA-256 digests share their first 32 bits (found by a
// birthday search over "dagu_collision_key_<n>").
const (
	collidingKeyA = "dagu_collision_key_17130"
	collidingKeyB = "dagu_collision_key_81596"
)

// TestAcceptedKeysNeverShareACallerName: the caller name of a verified key
// is its rate-limit bucket, so two accepted keys must get two names, even
// when the digests start alike (the name kept 32 bits of the fingerprint,
// and these two keys shared a bucket). The name never carries the key.
func TestAcceptedKeysNeverShareACallerName(t *testing.T) {
	t.Parallel()
	if redact.Fingerprint(collidingKeyA)[:8] != redact.Fingerprint(collidingKeyB)[:8] {
		t.Fatal("the test keys no longer share their first 32 bits")
	}
	v, err := New(Options{Check: func(context.Context, string) (Verdict, error) { return Verified, nil }, Now: testkit.NewClock(time.Unix(1_000_000, 0)).Now})
	if err != nil {
		t.Fatal(err)
	}
	a := v.Decide(context.Background(), collidingKeyA, "10.0.0.1:1")
	b := v.Decide(context.Background(), collidingKeyB, "10.0.0.1:1")
	if a.Verdict != Verified || b.Verdict != Verified {
		t.Fatalf("verdicts %v %v", a.Verdict, b.Verdict)
	}
	if a.Caller == b.Caller {
		t.Errorf("two accepted keys share the caller name (and rate-limit bucket) %q", a.Caller)
	}
	for _, d := range []Decision{a, b} {
		if strings.Contains(d.Caller, "collision_key") {
			t.Errorf("the caller name %q carries the key", d.Caller)
		}
	}
}
