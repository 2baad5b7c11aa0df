// SPDX-License-Identifier: Apache-2.0

package restclient

import (
	"context"
	"net/http"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/reqctx"
)

// TestPassthroughSendsTheCallersCredential: each request carries its own
// caller's key, never the configured one; the gateway's own calls (no
// caller) carry none.
func TestPassthroughSendsTheCallersCredential(t *testing.T) {
	t.Parallel()
	var seen []string
	srv, rec := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		seen = append(seen, r.Header.Get("Authorization"))
		writeJSON(w, 200, healthJSON)
	})
	c := newTestClient(t, srv.URL, func(cfg *Config) { cfg.Passthrough, cfg.Key = true, StaticKey("service-key-never-sent") })
	for _, key := range []string{"dagu_alice_key_0001", "dagu_bob_key_00002"} {
		ctx := reqctx.WithCredential(context.Background(), key)
		if _, err := c.Health(ctx); err != nil {
			t.Fatal(err)
		}
		if got := seen[len(seen)-1]; got != "Bearer "+key {
			t.Fatalf("sent %q, want the caller's key", got)
		}
	}
	fa := c.Fingerprint(reqctx.WithCredential(context.Background(), "dagu_alice_key_0001"))
	fb := c.Fingerprint(reqctx.WithCredential(context.Background(), "dagu_bob_key_00002"))
	if fa == fb || fa == c.KeyFingerprint() {
		t.Fatalf("fingerprints %q %q %q", fa, fb, c.KeyFingerprint())
	}
	if _, err := c.Health(context.Background()); err != nil || seen[len(seen)-1] != "" || rec.count() != 3 {
		t.Fatalf("the gateway's own call: %v, sent %q", err, seen[len(seen)-1])
	}
}

// TestChosenCredentialReplacesTheServiceKey: outside passthrough a
// request for which the front door chose a key (a signed-in person's
// access rule) is sent with it and fingerprinted by it; a request without
// one, and the gateway's own calls, use the configured key.
func TestChosenCredentialReplacesTheServiceKey(t *testing.T) {
	t.Parallel()
	var seen []string
	srv, _ := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		seen = append(seen, r.Header.Get("Authorization"))
		writeJSON(w, 200, healthJSON)
	})
	c := newTestClient(t, srv.URL, func(cfg *Config) { cfg.Key = StaticKey("dagu_service_key_01") })
	cases := []struct {
		ctx  context.Context
		sent string
		fp   string
	}{
		{reqctx.WithCredential(context.Background(), "dagu_rule_sre_key_1"), "Bearer dagu_rule_sre_key_1", KeyFingerprint("dagu_rule_sre_key_1")},
		{reqctx.WithCredential(context.Background(), "dagu_rule_dev_key_2"), "Bearer dagu_rule_dev_key_2", KeyFingerprint("dagu_rule_dev_key_2")},
		{context.Background(), "Bearer dagu_service_key_01", c.KeyFingerprint()},
	}
	for _, tc := range cases {
		if _, err := c.Health(tc.ctx); err != nil {
			t.Fatal(err)
		}
		if got := seen[len(seen)-1]; got != tc.sent {
			t.Errorf("sent %q, want %q", got, tc.sent)
		}
		if got := c.Fingerprint(tc.ctx); got != tc.fp {
			t.Errorf("fingerprint %q, want %q", got, tc.fp)
		}
	}
	if cases[0].fp == cases[1].fp || cases[0].fp == cases[2].fp {
		t.Errorf("two credentials share a fingerprint")
	}
}
