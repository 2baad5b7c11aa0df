// SPDX-License-Identifier: Apache-2.0

package main

// The gateway's garbage-collector policy: a heap goal kept near a floor
// while the live heap is small (ByteDance's gctuner), Go's default beyond
// it, and an operator's GOGC always wins.

import (
	"log/slog"
	"sync"

	"github.com/bytedance/gopkg/util/gctuner"

	"github.com/dagu-mcp-gateway/gateway/internal/config"
)

// gcMaxPercent caps how far the collector lets a small heap grow (6x its
// live size), so a tiny live heap never buys a large resident one.
const gcMaxPercent = 500

// gcTunerOnce starts the tuner once per process: gctuner keeps one global
// tuner whose settings are not meant to change while it runs.
var gcTunerOnce sync.Once

// applyGCPolicy keeps the heap goal near floor while the live heap is
// small. The MCP SDK allocates about 300 KB per request (a 32 KiB decoder
// buffer per JSON value it reads), and the gateway's live heap is a few
// MiB, so with Go's default the collector would run every few requests;
// BENCHMARKS.md has the measurements. Once the live heap passes half of
// floor the collector behaves as with GOGC=100 again, so large heaps (a
// full run cache, big log windows, workbooks) are collected as usual. An
// operator's GOGC wins: with it set, or floor 0, Go's policy is left alone.
// The first call of a process decides; it reports whether the tuner runs.
func applyGCPolicy(floor int64, getenv func(string) string) bool {
	if !gcPolicyApplies(floor, getenv) {
		return false
	}
	gcTunerOnce.Do(func() {
		gctuner.SetMinGCPercent(100)
		gctuner.SetMaxGCPercent(gcMaxPercent)
		gctuner.Tuning(uint64(floor))
	})
	return true
}

// gcPolicyApplies: a positive floor and no GOGC from the operator.
func gcPolicyApplies(floor int64, getenv func(string) string) bool {
	return floor > 0 && getenv("GOGC") == ""
}

// gcPolicyMessage is the start-up line that says whether the GC policy is
// on (see logGCPolicy).
const gcPolicyMessage = "GC policy"

// logGCPolicy writes the start-up line of serve, stdio and demo about the
// GC policy applyGCPolicy decided: on with its floor, or off and why (the
// operator's GOGC, or a zero floor), so an operator sees which collector
// policy the process runs with.
func logGCPolicy(log *slog.Logger, floor int64, getenv func(string) string) {
	switch {
	case gcPolicyApplies(floor, getenv):
		log.Info(gcPolicyMessage, "gc_policy", "on", "gc_heap_floor", config.FormatByteSize(floor), "gc_max_percent", gcMaxPercent)
	case floor <= 0:
		log.Info(gcPolicyMessage, "gc_policy", "off", "reason", "--gc-heap-floor is 0", "gc_heap_floor", config.FormatByteSize(floor))
	default:
		log.Info(gcPolicyMessage, "gc_policy", "off", "reason", "GOGC is set", "gogc", getenv("GOGC"))
	}
}
