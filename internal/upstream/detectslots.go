// SPDX-License-Identifier: Apache-2.0

package upstream

import (
	"context"
	"errors"

	"github.com/dagu-mcp-gateway/gateway/internal/restclient"
)

// DefaultDetectionSlots is the recommended number of capability
// detections in flight across the adapters of one process.
const DefaultDetectionSlots = 4

// DetectionSlots bounds the capability detections in flight across every
// adapter that shares it: a reload that adds many Dagu servers starts one
// detection each, and unbounded they would take every REST slot of the
// process from the reads of the servers already served. Nil bounds
// nothing (one Dagu server has one detection at a time anyway).
type DetectionSlots struct{ places chan struct{} }

// NewDetectionSlots returns a bound of n detections in flight (n < 1: 1).
func NewDetectionSlots(n int) *DetectionSlots {
	return &DetectionSlots{places: make(chan struct{}, max(n, 1))}
}

// take waits, no longer than ctx allows, for a place and returns what
// gives it back. Running out of time counts as a detection to which Dagu
// sent no answer, as a detection timing out in flight does.
func (s *DetectionSlots) take(ctx context.Context) (func(), error) {
	if s == nil {
		return func() {}, nil
	}
	select {
	case s.places <- struct{}{}:
		return func() { <-s.places }, nil
	case <-ctx.Done():
		return nil, &restclient.Error{Route: "capability detection", Excerpt: "waiting for a detection slot",
			Timeout: errors.Is(ctx.Err(), context.DeadlineExceeded), Canceled: errors.Is(ctx.Err(), context.Canceled), Cause: ctx.Err()}
	}
}

// BoundDetections makes the adapter's detections take places in s (nil:
// no bound), as AdapterOptions.Detections does; it must be called before
// Start and before the first read.
func (a *Adapter) BoundDetections(s *DetectionSlots) { a.opts.Detections = s }
