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

// TestCallerNames: a verified caller is named, and limited, by whose
// credential it is when Dagu says (so twelve logins of one user share
// one name: issue 28 #5), else by the credential's whole fingerprint (two
// keys whose digests start alike get two names); an identity that is long
// or odd is named by its fingerprint. No name carries the credential.
func TestCallerNames(t *testing.T) {
	t.Parallel()
	if redact.Fingerprint(collidingKeyA)[:8] != redact.Fingerprint(collidingKeyB)[:8] {
		t.Fatal("the test keys no longer share their first 32 bits")
	}
	long := strings.Repeat("u", maxIdentityLen+1)
	for _, tt := range []struct {
		name     string
		whose    map[string]string // credential -> identity Dagu names
		sameName bool
		want     string // the first credential's name, when not ""
	}{
		{"logins of one user", map[string]string{"jwt.login.1": "user-7", "jwt.login.2": "user-7"}, true, "dagu:user-7"},
		{"API keys", map[string]string{"dagu_k1": "api_key:9ee159bc-781b-48fd-8500-de3ebc285c31", "dagu_k2": "api_key:17b38845-55c0-4eec-87ef-bb079f88770d"}, false, ""},
		{"no identity, colliding prefixes", map[string]string{collidingKeyA: "", collidingKeyB: ""}, false, ""},
		{"long identity", map[string]string{"dagu_k3": long}, false, "dagu-id:" + redact.Fingerprint(long)},
		{"odd identity", map[string]string{"dagu_k4": "a b\n"}, false, "dagu-id:" + redact.Fingerprint("a b\n")},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			v, err := New(Options{
				Check: func(_ context.Context, c string) (Result, error) {
					return Result{Verdict: Verified, Identity: tt.whose[c]}, nil
				},
				Now: testkit.NewClock(time.Unix(1_000_000, 0)).Now,
			})
			if err != nil {
				t.Fatal(err)
			}
			names := map[string]bool{}
			for credential := range tt.whose {
				d := v.Decide(context.Background(), credential, "10.0.0.1:1")
				if d.Verdict != Verified || strings.Contains(d.Caller, credential) {
					t.Fatalf("%+v", d)
				}
				if tt.want != "" && d.Caller != tt.want {
					t.Errorf("name %q, want %q", d.Caller, tt.want)
				}
				names[d.Caller] = true
			}
			if shared := len(names) == 1 && len(tt.whose) > 1; shared != tt.sameName {
				t.Errorf("names %v: shared %v, want %v", names, shared, tt.sameName)
			}
		})
	}
}
