// SPDX-License-Identifier: Apache-2.0

package readtool

import (
	"context"

	"github.com/dagu-mcp-gateway/gateway/internal/reqctx"
)

// openTargets are the reads an unverified caller may make: the reference
// topics, which are the gateway's own text and read nothing of Dagu or of
// the gateway's host.
var openTargets = map[string]bool{tReference: true, tReferences: true}

// unverifiedRetryAfterMs is the wait an unchecked caller is told to take.
const unverifiedRetryAfterMs = 1000

// refuseUnverified applies the front door's trust decision: only a
// verified caller reads anything but the reference topics. With callers'
// own Dagu keys (passthrough) the request must carry the verified
// decision; otherwise (inbound tokens, a loopback listener, stdio) only an
// explicit unverified decision refuses.
func (t *Tool) refuseUnverified(ctx context.Context, c *call) *Error {
	if openTargets[c.target] {
		return nil
	}
	info, _ := reqctx.From(ctx)
	switch {
	case info.Trust == reqctx.TrustVerified, !t.passthrough && info.Trust == "":
		return nil
	}
	var e *Error
	switch info.Trust {
	case reqctx.TrustRefused:
		e = newError(CodeUnauthenticated, "Dagu did not accept your API key: send Authorization: Bearer <your Dagu API key with the rest_api surface>. Until then only the reference topics can be read.")
	case reqctx.TrustLacksSurface:
		e = newError(CodeUnauthorized, surfaceAdvice)
	default:
		e = newError(CodeResourceUnavailable, "Your Dagu API key could not be checked yet (Dagu did not answer, or too many new keys came from your address); try again shortly.").
			withDetail("retryAfterMs", unverifiedRetryAfterMs)
	}
	decorate(e, c)
	return e
}
