// SPDX-License-Identifier: Apache-2.0

package config

import (
	"strings"
	"testing"
)

func TestCheckIssuerURL(t *testing.T) {
	t.Parallel()
	cases := []struct {
		raw, problem string
	}{
		{"https://idp.example.com/realms/team", ""},
		{"https://login.microsoftonline.com/tenant/v2.0", ""},
		{"http://127.0.0.1:9000", ""},
		{"http://[::1]:9000/issuer", ""},
		{"http://localhost:9000", ""},
		{"http://idp.example.com", "loopback"},
		{"http://10.0.0.5:8080", "loopback"},
		{"ftp://idp.example.com", "scheme"},
		{"https://idp.example.com:99999", "host"},
		{"idp.example.com", "scheme"},
		{"https://", "no host"},
		{"https://user:pw@idp.example.com", "user information"},
		{"https://idp.example.com?x=1", "query"},
		{"https://idp.example.com#frag", "fragment"},
		{`https://idp.example.com/"x`, "printable"},
		{"https://idp.example.com/ x", "printable"},
	}
	for _, tc := range cases {
		err := CheckIssuerURL("--oidc-issuer", tc.raw)
		switch {
		case tc.problem == "" && err != nil:
			t.Errorf("%q: %v", tc.raw, err)
		case tc.problem != "" && (err == nil || !strings.Contains(err.Error(), tc.problem)):
			t.Errorf("%q: %v, want an error saying %q", tc.raw, err, tc.problem)
		}
	}
}
