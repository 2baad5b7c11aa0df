// SPDX-License-Identifier: Apache-2.0

package upstream

import (
	"context"
	"net/http"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu/fakedagutest"
	"github.com/dagu-mcp-gateway/gateway/internal/model"
	"github.com/dagu-mcp-gateway/gateway/internal/reqctx"
)

// TestCachesNeverServeAnotherCredential fills every cache with a valid
// key, then switches to a key Dagu refuses: every read that succeeded must
// now ask Dagu again and fail with its 401, never be answered from what the
// other key read.
func TestCachesNeverServeAnotherCredential(t *testing.T) {
	t.Parallel()
	env := cachedEnv(t, fakedagu.Options{Foreach: fakedagu.ForeachRoutes, Role: "manager"})
	ctx := context.Background()
	var served []namedRead
	for range 2 {
		served = served[:0]
		for _, r := range everyRead() {
			if _, err := r.read(ctx, env.adapter); err == nil {
				served = append(served, r)
			}
		}
	}
	if len(served) < 20 {
		t.Fatalf("only %d reads succeeded with the valid key", len(served))
	}
	env.key.set("dagu_some_other_key_dagu_refuses")
	for _, r := range served {
		var err error
		calls := env.calls(func() { _, err = r.read(ctx, env.adapter) })
		if len(calls) == 0 {
			t.Errorf("%s: answered without asking Dagu", r.name)
		}
		if e, ok := model.AsFailure(err); !ok || e.Status != http.StatusUnauthorized {
			t.Errorf("%s: error %v, want Dagu's 401", r.name, err)
		}
	}
}

// TestSecondCredentialFillsItsOwnEntries: with two keys Dagu accepts, each
// key's first read of a finished run asks Dagu, and each key's second read
// is answered from that key's own entries.
func TestSecondCredentialFillsItsOwnEntries(t *testing.T) {
	t.Parallel()
	env := newAdapterEnv(t, envOptions{noAuth: true, adapter: withCaches})
	ctx := context.Background()
	steps := []struct {
		key       string
		wantCalls bool
	}{{"dagu_key_a", true}, {"dagu_key_a", false}, {"dagu_key_b", true}, {"dagu_key_b", false}, {"dagu_key_a", false}}
	for i, s := range steps {
		env.key.set(s.key)
		calls := env.calls(func() {
			if _, err := env.adapter.GetRun(ctx, runOf("failing_job", failingRun)); err != nil {
				t.Fatal(err)
			}
			if _, err := env.adapter.ListDAGs(ctx, model.DAGListQuery{}); err != nil {
				t.Fatal(err)
			}
		})
		if got := len(calls) > 0; got != s.wantCalls {
			t.Errorf("step %d (%s): calls %q, want calls: %v", i, s.key, calls, s.wantCalls)
		}
	}
}

// TestRuleCredentialsKeepTheirOwnEntries: outside passthrough, the Dagu
// key the front door chose for a request (a signed-in person's access
// rule, reqctx.WithCredential) keys every cache as the service key does:
// a rule with the service's key shares what that key read, and a rule
// whose key Dagu refuses never gets what another key read.
func TestRuleCredentialsKeepTheirOwnEntries(t *testing.T) {
	t.Parallel()
	env := cachedEnv(t, fakedagu.Options{Foreach: fakedagu.ForeachRoutes, Role: "manager"})
	service := context.Background()
	sre := reqctx.WithCredential(service, fakedagutest.APIKey)
	refused := reqctx.WithCredential(service, "dagu_rule_key_dagu_refuses")
	read := func(ctx context.Context) error {
		if _, err := env.adapter.GetRun(ctx, runOf("failing_job", failingRun)); err != nil {
			return err
		}
		_, err := env.adapter.ListDAGs(ctx, model.DAGListQuery{})
		return err
	}
	steps := []struct {
		name      string
		ctx       context.Context
		wantCalls bool
		status    int
	}{
		{"service key, first", service, true, 0},
		{"service key, again", service, false, 0},
		{"rule with the service's key", sre, false, 0},
		{"refused rule key", refused, true, http.StatusUnauthorized},
		{"refused rule key, again", refused, true, http.StatusUnauthorized},
	}
	for _, s := range steps {
		var err error
		calls := env.calls(func() { err = read(s.ctx) })
		if got := len(calls) > 0; got != s.wantCalls {
			t.Errorf("%s: calls %q, want calls: %v", s.name, calls, s.wantCalls)
		}
		e, _ := model.AsFailure(err)
		switch {
		case s.status == 0 && err != nil:
			t.Errorf("%s: %v", s.name, err)
		case s.status != 0 && (e == nil || e.Status != s.status):
			t.Errorf("%s: error %v, want Dagu's %d", s.name, err, s.status)
		}
	}
}

// TestTwoRuleKeysNeverShareAnAnswer: two access rules with different Dagu
// keys each ask Dagu for their first read and are answered from their own
// entries after that.
func TestTwoRuleKeysNeverShareAnAnswer(t *testing.T) {
	t.Parallel()
	env := newAdapterEnv(t, envOptions{noAuth: true, adapter: withCaches})
	base := context.Background()
	steps := []struct {
		key       string
		wantCalls bool
	}{{"dagu_rule_sre", true}, {"dagu_rule_sre", false}, {"dagu_rule_dev", true}, {"dagu_rule_dev", false}, {"dagu_rule_sre", false}}
	for i, s := range steps {
		ctx := reqctx.WithCredential(base, s.key)
		calls := env.calls(func() {
			if _, err := env.adapter.GetRun(ctx, runOf("failing_job", failingRun)); err != nil {
				t.Fatal(err)
			}
			if _, err := env.adapter.ListDAGs(ctx, model.DAGListQuery{}); err != nil {
				t.Fatal(err)
			}
		})
		if got := len(calls) > 0; got != s.wantCalls {
			t.Errorf("step %d (%s): calls %q, want calls: %v", i, s.key, calls, s.wantCalls)
		}
	}
}
