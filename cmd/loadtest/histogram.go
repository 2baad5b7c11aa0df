// SPDX-License-Identifier: Apache-2.0

package main

import (
	"math"
	"time"
)

// Latency histogram: buckets grow by histGrowth from histMin, so any
// quantile is exact to within 2% and memory stays fixed however long the
// run.
const (
	histMin     = time.Microsecond
	histGrowth  = 1.02
	histBuckets = 1000 // up to about 6.8 minutes
)

// histogram counts latencies; it is not safe for concurrent use (each
// client has its own and they are merged at the end).
type histogram struct {
	counts [histBuckets]uint64
	n      uint64
	max    time.Duration
}

// add records one latency.
func (h *histogram) add(d time.Duration) {
	h.counts[bucketOf(d)]++
	h.n++
	h.max = max(h.max, d)
}

// merge adds o's counts to h.
func (h *histogram) merge(o *histogram) {
	for i, c := range o.counts {
		h.counts[i] += c
	}
	h.n += o.n
	h.max = max(h.max, o.max)
}

// quantile returns the latency below which a fraction q of the calls
// finished (the upper bound of its bucket, never above the maximum; the
// maximum itself in the last, open bucket); 0 when nothing was recorded.
func (h *histogram) quantile(q float64) time.Duration {
	if h.n == 0 {
		return 0
	}
	rank := uint64(math.Ceil(q * float64(h.n)))
	rank = min(max(rank, 1), h.n)
	var seen uint64
	for i, c := range h.counts {
		seen += c
		if seen >= rank && i < histBuckets-1 {
			return min(upperBound(i), h.max)
		}
	}
	return h.max
}

// bucketOf is the bucket of a latency.
func bucketOf(d time.Duration) int {
	if d <= histMin {
		return 0
	}
	i := int(math.Log(float64(d)/float64(histMin)) / math.Log(histGrowth))
	return min(i, histBuckets-1)
}

// upperBound is the largest latency bucket i holds.
func upperBound(i int) time.Duration {
	return time.Duration(float64(histMin) * math.Pow(histGrowth, float64(i+1)))
}
