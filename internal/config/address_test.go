// SPDX-License-Identifier: Apache-2.0

package config

import (
	"strings"
	"testing"
)

func TestSplitHostMaybePort(t *testing.T) {
	tests := []struct {
		in, host, port string
		wantErr        bool
	}{
		{"example.com", "example.com", "", false},
		{"example.com:8443", "example.com", "8443", false},
		{"[::1]:8090", "::1", "8090", false},
		{"[::1]", "::1", "", false},
		{"::1", "::1", "", false},
		{"example.com:", "", "", true},
		{"example.com:99999", "", "", true},
		{"example.com:+80", "", "", true},
		{":8090", "", "", true},
		{"[]", "", "", true},
		{"", "", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			host, port, err := SplitHostMaybePort(tt.in)
			if (err != nil) != tt.wantErr || host != tt.host || port != tt.port {
				t.Errorf("got %q %q %v; want %q %q err=%v", host, port, err, tt.host, tt.port, tt.wantErr)
			}
		})
	}
}

func FuzzSplitHostMaybePort(f *testing.F) {
	for _, s := range []string{"example.com", "example.com:8443", "[::1]:8090", "[::1]", "::1", ":1", "[", "a:b:c", "h:-1", "0:+0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		host, port, err := SplitHostMaybePort(s)
		if err != nil {
			return
		}
		if host == "" {
			t.Fatalf("%q: empty host accepted", s)
		}
		if port != "" && strings.Trim(port, "0123456789") != "" {
			t.Fatalf("%q: non-numeric port %q", s, port)
		}
	})
}

// TestReachableHost: a wildcard listen address is reached at 127.0.0.1
// (and says so); any other keeps its host.
func TestReachableHost(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		listen, want string
		wildcard     bool
	}{
		{"127.0.0.1:8090", "127.0.0.1:8090", false},
		{"0.0.0.0:8090", "127.0.0.1:8090", true},
		{"[::]:8090", "127.0.0.1:8090", true},
		{":8090", "127.0.0.1:8090", true},
		{"[::1]:8090", "[::1]:8090", false},
		{"gw.internal:8090", "gw.internal:8090", false},
		{"not an address", "not an address", false},
	} {
		if got, wildcard := ReachableHost(tc.listen); got != tc.want || wildcard != tc.wildcard {
			t.Errorf("ReachableHost(%q) = %q, %v; want %q, %v", tc.listen, got, wildcard, tc.want, tc.wildcard)
		}
	}
}
