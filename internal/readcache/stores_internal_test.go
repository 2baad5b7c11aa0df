// SPDX-License-Identifier: Apache-2.0

package readcache

import "testing"

// TestSharedKeysLeaveTheLocalScopeOut: replicas number their instances'
// local scopes each its own way, so a shared key holds only the
// credential's fingerprint, or replicas would never share an entry.
func TestSharedKeysLeaveTheLocalScopeOut(t *testing.T) {
	t.Parallel()
	var s *Shared
	for _, scope := range []string{"", "prod#1", "prod#7"} {
		if k := s.Key(KindRun, scoped(scope, "fp"), "etl"); k.Fingerprint != "fp" {
			t.Errorf("scope %q: shared key fingerprint %q, want fp", scope, k.Fingerprint)
		}
	}
}
