// SPDX-License-Identifier: Apache-2.0

package telemetry

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync/atomic"
	"testing"
)

type credentialKey struct{}

// TestRequestCredentialIsScrubbed: the current request's own key, which
// has no Dagu shape and is no configured secret (a passthrough caller's),
// never reaches a line logged for that request (issue 20: it was logged
// verbatim when Dagu echoed it), nor does anything JWT-shaped.
func TestRequestCredentialIsScrubbed(t *testing.T) {
	t.Parallel()
	const callerKey = "callers-own-key-7f3a9b2c"
	const jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJlLWJ5dGVz"
	for _, format := range []string{"json", "text"} {
		var out bytes.Buffer
		log := NewLogger(&out, LogOptions{Format: format, RequestSecrets: func(ctx context.Context) []string {
			key, _ := ctx.Value(credentialKey{}).(string)
			return []string{key}
		}})
		ctx := context.WithValue(context.Background(), credentialKey{}, callerKey)
		log.With("component", "test").WarnContext(ctx, "dagu said key "+callerKey+" is bad",
			"cause", errors.New(`HTTP 401: {"message":"token `+callerKey+` / `+jwt+`"}`))
		if strings.Contains(out.String(), callerKey) || strings.Contains(out.String(), jwt) {
			t.Fatalf("%s: the line carries the caller's key or a JWT: %s", format, out.String())
		}
		if strings.Count(out.String(), redacted) < 3 {
			t.Fatalf("%s: not marked as redacted: %s", format, out.String())
		}
	}
}

// TestSecretsAreMatchedOncePerVersion: with a version, the secrets are
// listed (and their matcher built) once per version, not per line.
func TestSecretsAreMatchedOncePerVersion(t *testing.T) {
	t.Parallel()
	var listed atomic.Int64
	var version atomic.Uint64
	secrets := []string{"first-secret-value", "second-secret-value"}
	var out bytes.Buffer
	log := NewLogger(&out, LogOptions{
		Secrets:        func() []string { listed.Add(1); return secrets },
		SecretsVersion: func() uint64 { return version.Load() },
	})
	for range 100 {
		log.Info("x first-secret-value y")
	}
	version.Add(1)
	log.Info("second-secret-value")
	if listed.Load() != 2 {
		t.Errorf("secrets listed %d times for 101 lines and two versions, want 2", listed.Load())
	}
	if strings.Contains(out.String(), "secret-value") {
		t.Errorf("a secret was logged: %s", out.String())
	}
}

// TestSecretsAreLookedUpOncePerLine: the configured secrets (in the
// gateway: the key file and the token file) are looked up once per line
// however many strings it carries (it was once per string attribute, the
// message included), and once per With; every string is still scrubbed.
func TestSecretsAreLookedUpOncePerLine(t *testing.T) {
	t.Parallel()
	const secret = "configured-secret-value"
	var lookups atomic.Int64
	var out bytes.Buffer
	log := NewLogger(&out, LogOptions{
		Secrets:        func() []string { return []string{secret} },
		SecretsVersion: func() uint64 { lookups.Add(1); return 1 },
	})
	args := []any{"cause", errors.New("dagu echoed " + secret), slog.Group("g", "inner", secret)}
	for i := range 10 {
		args = append(args, fmt.Sprintf("attr%d", i), "value "+secret)
	}
	log.Info("message "+secret, args...)
	if got := lookups.Load(); got != 1 {
		t.Errorf("secrets looked up %d times for one line, want once", got)
	}
	scoped := log.With("component", secret)
	scoped.Info("again", "k", secret)
	if got := lookups.Load(); got != 3 {
		t.Errorf("secrets looked up %d times after a With and a second line, want 3", got)
	}
	if strings.Contains(out.String(), secret) {
		t.Errorf("a secret was logged: %s", out.String())
	}
	if n := strings.Count(out.String(), redacted); n != 15 {
		t.Errorf("%d strings redacted, want 15: %s", n, out.String())
	}
}
