// SPDX-License-Identifier: Apache-2.0

package frontdoor

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/membudget"
	"github.com/dagu-mcp-gateway/gateway/internal/reqctx"
)

// TestPassthroughTrustDecision: in passthrough the front door makes one
// trust decision per request with Verify before the MCP handler runs and
// hands it on in the request's context with the credential; a client's own
// trust or caller header means nothing, a request without a key never
// reaches Verify, and /metrics answers only a verified caller.
func TestPassthroughTrustDecision(t *testing.T) {
	t.Parallel()
	var asked []string
	var seen reqctx.Info
	var credential string
	h, _ := frontDoor(t, func(o *Options) {
		o.Passthrough = true
		o.Listen = "0.0.0.0:8090"
		o.Verify = goodKeyVerifier(&asked)
		o.MCP = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			seen, _ = reqctx.From(r.Context())
			credential, _ = reqctx.Credential(r.Context())
		})
	})
	forge := func(r *http.Request) {
		r.Header.Set("X-Gateway-Trust", string(reqctx.TrustVerified))
		r.Header.Set("X-Gateway-Caller", "key:good")
	}
	frontDoorRequest{path: "/mcp", auth: "Bearer bogus", body: ping}.doWith(h, forge)
	if seen.Trust != reqctx.TrustRefused || seen.Caller != "unverified:192.0.2.1" || seen.RequestID == "" || credential != "bogus" {
		t.Errorf("bogus key: %+v, credential %q", seen, credential)
	}
	frontDoorRequest{path: "/mcp", auth: "Bearer dagu_good", body: ping}.do(h)
	if seen.Trust != reqctx.TrustVerified || seen.Caller != "key:good" || credential != "dagu_good" {
		t.Errorf("good key: %+v, credential %q", seen, credential)
	}
	if w := (frontDoorRequest{path: "/mcp", body: ping}).doWith(h, forge); w.Code != http.StatusUnauthorized {
		t.Errorf("no key: %d, want 401", w.Code)
	}
	if w := (frontDoorRequest{path: "/mcp", auth: "Bearer " + strings.Repeat("k", maxCredentialBytes+1), body: ping}).do(h); w.Code != http.StatusUnauthorized {
		t.Errorf("a key longer than any Dagu key: %d, want 401", w.Code)
	}
	if len(asked) != 2 {
		t.Errorf("Verify asked for %v, want one decision per request with a key", asked)
	}
	for auth, want := range map[string]int{"Bearer x": 401, "Bearer dagu_good": 200} {
		if w := (frontDoorRequest{method: http.MethodGet, path: "/metrics", auth: auth}).doWith(h, forge); w.Code != want {
			t.Errorf("/metrics with %q: %d, want %d", auth, w.Code, want)
		}
	}
}

// goodKeyVerifier verifies "dagu_good" and refuses the rest, recording
// the credentials it was asked about when asked is not nil.
func goodKeyVerifier(asked *[]string) Verifier {
	return func(_ context.Context, credential, remote string) (reqctx.Trust, string) {
		if asked != nil {
			*asked = append(*asked, credential)
		}
		if credential == "dagu_good" {
			return reqctx.TrustVerified, "key:good"
		}
		return reqctx.TrustRefused, "unverified:" + remoteHost(remote)
	}
}

// TestUnverifiedBodiesAreBoundedBeforeParsing: in passthrough a caller
// whose key Dagu has not accepted sends at most 8 KiB: a declared longer
// body is refused with 413 before the MCP handler runs, an undeclared one
// fails its read at the bound (issue 28 #2: 1 MiB bodies of made-up keys
// reached the parser); a verified caller's body keeps the usual limit.
func TestUnverifiedBodiesAreBoundedBeforeParsing(t *testing.T) {
	t.Parallel()
	big := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"arguments":{"x":"` + strings.Repeat("a", 64<<10) + `"}}}`
	small := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`
	hideLength := func(r *http.Request) { r.ContentLength = -1; r.Body = io.NopCloser(io.MultiReader(r.Body)) }
	for _, tt := range []struct {
		name       string
		key, body  string
		edit       func(*http.Request)
		wantStatus int
		wantCalled bool
		wantCut    bool
	}{
		{"unverified, declared big body", "bogus", big, nil, http.StatusRequestEntityTooLarge, false, false},
		// Cut at the unverified bound while the front door reads it: the
		// body is far below the usual limit.
		{"unverified, undeclared big body", "bogus", big, hideLength, http.StatusRequestEntityTooLarge, false, false},
		{"unverified, small body", "bogus", small, nil, http.StatusOK, true, false},
		{"verified, big body", "dagu_good", big, nil, http.StatusOK, true, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h, mcp := frontDoor(t, func(o *Options) {
				o.Passthrough = true
				o.Verify = goodKeyVerifier(nil)
			})
			w := frontDoorRequest{path: "/mcp", auth: "Bearer " + tt.key, body: tt.body}.doWith(h, tt.edit)
			if w.Code != tt.wantStatus || (mcp.calls.Load() == 1) != tt.wantCalled {
				t.Fatalf("status %d, handler called %d times; want %d, called %v", w.Code, mcp.calls.Load(), tt.wantStatus, tt.wantCalled)
			}
			var tooBig *http.MaxBytesError
			if errp := mcp.readErr.Load(); (errp != nil && errors.As(*errp, &tooBig) && tooBig.Limit == maxUnverifiedBodyBytes) != tt.wantCut {
				t.Errorf("read error %v, want cut at %d: %v", errp, maxUnverifiedBodyBytes, tt.wantCut)
			}
		})
	}
}

// TestUnverifiedCallersReserveForTheirBound: an unverified caller's body
// of unknown length reserves the memory of its 8 KiB bound, not of the
// largest body, so strangers holding such requests open cannot take the
// budget the verified callers need.
func TestUnverifiedCallersReserveForTheirBound(t *testing.T) {
	t.Parallel()
	var held int64
	h, _ := frontDoor(t, func(o *Options) {
		o.Passthrough, o.Verify = true, goodKeyVerifier(nil)
		o.Memory = membudget.New("test", requestBaseBytes+requestParseFactor*maxUnverifiedBodyBytes)
		o.MCP = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { held = membudget.From(r.Context()).Held() })
	})
	hideLength := func(r *http.Request) { r.ContentLength = -1; r.Body = io.NopCloser(io.MultiReader(r.Body)) }
	w := frontDoorRequest{path: "/mcp", auth: "Bearer bogus", body: ping}.doWith(h, hideLength)
	if w.Code != http.StatusOK || held != requestBaseBytes+requestParseFactor*maxUnverifiedBodyBytes {
		t.Errorf("status %d, reserved %d; want 200 with the reservation of an 8 KiB body", w.Code, held)
	}
}
