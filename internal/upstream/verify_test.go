// SPDX-License-Identifier: Apache-2.0

package upstream

import (
	"context"
	"errors"
	"log/slog"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu/fakedagutest"
	"github.com/dagu-mcp-gateway/gateway/internal/model"
	"github.com/dagu-mcp-gateway/gateway/internal/reqctx"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient"
	"github.com/dagu-mcp-gateway/gateway/internal/testkit"
)

// TestPassthroughLearnsTheReleaseFromTheFirstAcceptedKey: a passthrough
// gateway has no key, so its start-up detection against an authenticated
// Dagu fails. The first caller key Dagu accepts detects the release (the
// REST base of 1.x is /api/v2), refused and unknown keys are told apart,
// and a read with the accepted key then uses the release's routes.
func TestPassthroughLearnsTheReleaseFromTheFirstAcceptedKey(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		profile  fakedagu.Profile
		base     restclient.APIBase
		mcpOnly  CredentialVerdict
		identity string // whose the key is, as the release's /auth/me says
	}{
		{fakedagu.Profile117, restclient.APIv2, CredentialRefused, ""},
		{fakedagu.Profile129, restclient.APIv2, CredentialAccepted, "apikey:e47b94c6-7e1f-4144-93f4-b9347d3ddb76"},
		{fakedagu.Profile20, restclient.APIv1, CredentialAccepted, "apikey:17b38845-55c0-4eec-87ef-bb079f88770d"},
		{fakedagu.Profile26, restclient.APIv1, CredentialAccepted, "apikey:ac79657f-e4af-4fee-8dbc-233aa6ce645b"},
		{fakedagu.ProfileCurrent, restclient.APIv1, CredentialLacksSurface, "api_key:9ee159bc-781b-48fd-8500-de3ebc285c31"},
	} {
		t.Run(string(tt.profile), func(t *testing.T) {
			t.Parallel()
			_, url := fakedagutest.Start(t, fakedagu.Options{Profile: tt.profile,
				APIKey: fakedagutest.APIKey, MCPOnlyKey: fakedagutest.MCPOnlyKey})
			client, err := restclient.New(restclient.Config{BaseURL: url, Passthrough: true})
			if err != nil {
				t.Fatal(err)
			}
			a, err := NewAdapter(AdapterOptions{Client: client})
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			_, _ = a.Refresh(ctx) // the start-up detection, without a key
			with := func(key string) context.Context { return reqctx.WithCredential(ctx, key) }

			if v, err := a.CheckCredential(with("bogus_token_xyz")); err != nil || v != CredentialRefused {
				t.Errorf("bogus key: verdict %v, err %v; want refused", v, err)
			}
			if v, err := a.CheckCredential(with(fakedagutest.MCPOnlyKey)); err != nil || v != tt.mcpOnly {
				t.Errorf("mcp-only key: verdict %v, err %v; want %v", v, err, tt.mcpOnly)
			}
			if v, err := a.CheckCredential(with(fakedagutest.APIKey)); err != nil || v != CredentialAccepted {
				t.Fatalf("valid key: verdict %v, err %v; want accepted", v, err)
			}
			if got := a.CredentialIdentity(with(fakedagutest.APIKey)); got != tt.identity {
				t.Errorf("identity %q, want %q", got, tt.identity)
			}
			if got := a.CredentialIdentity(with("bogus_token_xyz")); got != "" {
				t.Errorf("a refused key's identity %q, want none", got)
			}
			caps, ok := a.Capabilities()
			if !ok || caps.APIBase != tt.base {
				t.Fatalf("capabilities after the accepted key: %+v (ok %v), want REST base %s", caps, ok, tt.base)
			}
			if _, err := a.ListDAGs(with(fakedagutest.APIKey), model.DAGListQuery{}); err != nil {
				t.Fatalf("a read with the accepted key: %v", err)
			}
		})
	}
}

// TestCheckCredentialWhenDaguIsDown: an unreachable Dagu gives no verdict.
func TestCheckCredentialWhenDaguIsDown(t *testing.T) {
	t.Parallel()
	client, err := restclient.New(restclient.Config{BaseURL: "http://127.0.0.1:1", Passthrough: true, Retries: -1})
	if err != nil {
		t.Fatal(err)
	}
	a, err := NewAdapter(AdapterOptions{Client: client})
	if err != nil {
		t.Fatal(err)
	}
	_, err = a.CheckCredential(reqctx.WithCredential(context.Background(), fakedagutest.APIKey))
	if !errors.Is(err, ErrCredentialUnchecked) {
		t.Fatalf("err = %v, want ErrCredentialUnchecked", err)
	}
	// The REST client's error stays the cause, for logs and errors.As.
	if re, ok := restclient.AsError(err); !ok || re.Status != 0 || re.Route == "" {
		t.Errorf("err = %v, want the REST client's network error as its cause", err)
	}
}

// TestPassthroughStartupDetectionIsNoWarning: a passthrough gateway's
// detection without a caller's key meets Dagu's 401, which it expects (the
// first caller's key detects again): an info line, not a warning, as the
// same failure with the gateway's own key is.
func TestPassthroughStartupDetectionIsNoWarning(t *testing.T) {
	t.Parallel()
	_, url := fakedagutest.Start(t, fakedagu.Options{APIKey: fakedagutest.APIKey})
	for _, passthrough := range []bool{true, false} {
		client, err := restclient.New(restclient.Config{BaseURL: url, Passthrough: passthrough})
		if err != nil {
			t.Fatal(err)
		}
		var logs testkit.LogBuffer
		a, err := NewAdapter(AdapterOptions{Client: client, Logger: slog.New(slog.NewJSONHandler(&logs, nil))})
		if err != nil {
			t.Fatal(err)
		}
		_, err = a.Refresh(context.Background())
		if err == nil {
			t.Fatal("a detection without a key succeeded")
		}
		a.logDetectionFailure(context.Background(), err)
		want := "WARN"
		if passthrough {
			want = "INFO"
		}
		lines := logs.JSONLines(t)
		if len(lines) != 1 || lines[0]["level"] != want {
			t.Errorf("passthrough %v: %v, want one %s line", passthrough, lines, want)
		}
	}
}
