// SPDX-License-Identifier: Apache-2.0

package main

import (
	"fmt"
	"io"
	"slices"
	"time"
)

// maxTripSamples bounds the reads kept per target for the round-trip
// report.
const maxTripSamples = 10000

// tripSample is what one read cost upstream while the proxy delayed Dagu.
type tripSample struct {
	took  time.Duration
	depth int // sequential round trips (chainDepth)
	calls int // REST requests the proxy forwarded
}

// tripStats are one target's samples.
type tripStats struct {
	samples []tripSample
	lost    int // requests the proxy did not keep (see maxSpans)
}

func (t *tripStats) add(s tripSample, lost int) {
	t.lost += lost
	if len(t.samples) < maxTripSamples {
		t.samples = append(t.samples, s)
	}
}

func (t *tripStats) merge(o *tripStats) {
	t.lost += o.lost
	for _, s := range o.samples {
		t.add(s, 0)
	}
}

// medianOf returns the median of the values f picks from the samples.
func medianOf[T int | float64](samples []tripSample, f func(tripSample) T) T {
	if len(samples) == 0 {
		return 0
	}
	v := make([]T, len(samples))
	for i, s := range samples {
		v[i] = f(s)
	}
	slices.Sort(v)
	return v[len(v)/2]
}

// reportTrips prints, per target, the round trips a read waited on while
// every Dagu request was delayed: wall time ÷ delay and the chain depth
// (medians over the successful reads), the deepest chain seen, and the REST
// calls per read.
func reportTrips(w io.Writer, cfg config, trips map[string]*tripStats) {
	fmt.Fprintf(w, "upstream %s behind a proxy adding %s per request (medians over successful reads)\n", cfg.upstream, cfg.upstreamDelay)
	fmt.Fprintf(w, "  %-22s %6s %11s %6s %9s %6s\n", "target", "reads", "wall/delay", "chain", "chain max", "calls")
	for _, name := range cfg.mix {
		t := trips[name]
		if t == nil || len(t.samples) == 0 {
			continue
		}
		ratio := medianOf(t.samples, func(s tripSample) float64 { return float64(s.took) / float64(cfg.upstreamDelay) })
		depth := medianOf(t.samples, func(s tripSample) int { return s.depth })
		deepest := slices.MaxFunc(t.samples, func(a, b tripSample) int { return a.depth - b.depth }).depth
		calls := medianOf(t.samples, func(s tripSample) int { return s.calls })
		fmt.Fprintf(w, "  %-22s %6d %11.2f %6d %9d %6d\n", name, len(t.samples), ratio, depth, deepest, calls)
		if t.lost > 0 {
			fmt.Fprintf(w, "  %-22s %d requests were not recorded (more than %d between two reads)\n", "", t.lost, maxSpans)
		}
	}
}
