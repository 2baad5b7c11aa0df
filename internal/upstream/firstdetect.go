// SPDX-License-Identifier: Apache-2.0

package upstream

import (
	"context"

	"github.com/dagu-mcp-gateway/gateway/internal/restclient"
)

// awaitDialect holds a read until the first capability detection has
// succeeded: before it, the client would call the current release's
// routes, which an older Dagu answers wrongly (Dagu 1.29 has no runs
// under /api/v1). The read joins the detection in flight, or starts one
// that every concurrent read shares, and waits no longer than its own
// ctx. Once a detection has succeeded it returns at once: re-detections
// never hold a read. A detection to which Dagu sent no answer
// (unreachable, timed out, refused by the gateway's own guards) fails the
// read with that error, the failure a read of an unreachable Dagu gets;
// any other failed detection lets the read try the current routes, as
// before detection existed.
func (a *Adapter) awaitDialect(ctx context.Context) error {
	if _, ok := a.Capabilities(); ok {
		return nil
	}
	a.dialectWaits.Add(1)
	err := a.sharedDetection(ctx)
	if err != nil && (ctx.Err() != nil || noAnswer(err)) {
		return err
	}
	return nil
}

// sharedDetection runs a capability detection, or joins the one in
// flight, and waits for it no longer than ctx allows. The detection
// outlives the caller that started it (others may wait on it) but keeps
// ctx's values: a passthrough caller's key detects.
func (a *Adapter) sharedDetection(ctx context.Context) error {
	detached := context.WithoutCancel(ctx)
	done := a.detecting.DoChan(detectKey, func() (any, error) { return a.Refresh(detached) })
	select {
	case <-ctx.Done():
		return ctx.Err()
	case res := <-done:
		return res.Err
	}
}

// detectKey names the one detection concurrent callers share.
const detectKey = "detect"

// noAnswer reports a REST failure before any answer of Dagu arrived.
func noAnswer(err error) bool {
	e, ok := restclient.AsError(err)
	return ok && e.Status == 0
}
