// SPDX-License-Identifier: Apache-2.0

package readtool

import (
	"net/http"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
	"github.com/dagu-mcp-gateway/gateway/internal/reqctx"
)

// TestEveryFailureRowDecides: each row of the failure table is the first
// to hold for some failure, so no row is shadowed by one above it.
func TestEveryFailureRowDecides(t *testing.T) {
	t.Parallel()
	httpFailure := func(status int) *model.Failure { return &model.Failure{Kind: model.FailureHTTP, Status: status} }
	samples := []*model.Failure{
		httpFailure(400), httpFailure(401), {Kind: model.FailureHTTP, Status: 403, SurfaceDenied: true}, httpFailure(403), httpFailure(404), httpFailure(503),
		{Kind: model.FailureTimeout}, {Kind: model.FailureTooLarge}, {Kind: model.FailureTLS}, {Kind: model.FailureCredentials},
		{Kind: model.FailureNetwork}, {Kind: model.FailureUnsupported}, {Kind: model.FailureNotFound}, {Kind: model.FailureDecode},
		{Kind: model.FailureInvalidInput},
	}
	decides := make([]bool, len(failureRows))
	for _, f := range samples {
		for i, row := range failureRows {
			if row.holds(f) {
				decides[i] = true
				break
			}
		}
	}
	for i, ok := range decides {
		if !ok {
			t.Errorf("row %d (%s) decides none of the samples: shadowed, or a sample is missing", i, failureRows[i].code)
		}
	}
}

// TestPassthroughBlamesTheCallersKey: Dagu's 401 and 403 for a verified
// caller's read are about the caller's own key, not the operator's.
func TestPassthroughBlamesTheCallersKey(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		failure *model.Failure
		want    string
	}{
		{&model.Failure{Kind: model.FailureHTTP, Status: http.StatusForbidden, SurfaceDenied: true}, surfaceAdvice},
		{&model.Failure{Kind: model.FailureHTTP, Status: http.StatusUnauthorized}, "Dagu did not accept your API key; check the key you send as Authorization: Bearer <key>."},
		{&model.Failure{Kind: model.FailureHTTP, Status: http.StatusForbidden}, "Your Dagu API key is not allowed to read this resource."},
	} {
		tool, up, _ := passthroughTool(t)
		up.err = tt.failure
		if e := errorOf(t, callAs(tool, reqctx.TrustVerified, `{"target":"dags"}`)); e.Message != tt.want {
			t.Errorf("status %d: message %q, want %q", tt.failure.Status, e.Message, tt.want)
		}
	}
	tool, up := newStubTool(t)
	up.err = &model.Failure{Kind: model.FailureHTTP, Status: http.StatusForbidden, SurfaceDenied: true}
	if e := errorOf(t, callJSON(t, tool, `{"target":"dags"}`)); e.Message == surfaceAdvice {
		t.Errorf("the service mode blames the caller's key: %q", e.Message)
	}
}
