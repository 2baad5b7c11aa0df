// SPDX-License-Identifier: Apache-2.0

package readcache

import (
	"slices"
	"testing"
)

// TestSharedKeysTakeTheScope: the empty scope keeps a single server's keys
// as they were; a scope sets a server's keys apart from another's.
func TestSharedKeysTakeTheScope(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		shared *Shared
		want   []string
	}{
		{"no shared level", nil, []string{"x"}},
		{"one server", &Shared{}, []string{"x"}},
		{"a named server", &Shared{scope: "prod"}, []string{"scope", "prod", "x"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			k := tt.shared.Key(KindSpec, "anon", "x")
			if k.Kind != KindSpec || k.Fingerprint != "anon" || !slices.Equal(k.Parts, tt.want) {
				t.Errorf("key %+v, want parts %q", k, tt.want)
			}
		})
	}
}
