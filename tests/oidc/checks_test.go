// SPDX-License-Identifier: Apache-2.0

//go:build oidc

package oidc

import (
	"strings"
	"testing"
)

// checkDagus checks that each visit that read reached its instance's Dagu
// with its rule's key, and that no Dagu saw another credential (a sign-in
// token above all).
func (s *stack) checkDagus(t *testing.T, visits []visit) {
	t.Helper()
	for _, v := range visits {
		if v.Rule != "" && len(v.Reads) > 0 && s.dagus[v.Instance].reads(v.Rule) == 0 {
			t.Errorf("%s: no read reached the Dagu %q with the key of the rule %s", v.Name, v.Instance, v.Rule)
		}
	}
	for name, d := range s.dagus {
		if strange, jwt := d.leaks(); strange > 0 || jwt {
			t.Errorf("the Dagu %q got %d requests with a key of no rule (a JWT among them: %v)", name, strange, jwt)
		}
	}
}

// checkLog checks that the gateway's log names each admitted caller with
// their rule and never holds a token: no JWT (eyJ...), none of the
// tokens given.
func (s *stack) checkLog(t *testing.T, visits []visit, tokens ...string) {
	t.Helper()
	for _, v := range visits {
		sub := v.Login
		if sub == "" {
			sub = serviceAccount
		}
		if v.Rule != "" && !s.gw.LoggedLine(`"sub":"`+sub+`"`, `"rule":"`+v.Rule+`"`) {
			t.Errorf("%s: no log line names sub %s with the rule %s", v.Name, sub, v.Rule)
		}
	}
	logs := s.gw.Logs.String()
	if strings.Contains(logs, "eyJ") {
		t.Error("the gateway's log holds something shaped like a JWT")
	}
	for _, tok := range tokens {
		if tok != "" && strings.Contains(logs, tok[len(tok)-20:]) {
			t.Error("the gateway's log holds part of a token")
		}
	}
}
