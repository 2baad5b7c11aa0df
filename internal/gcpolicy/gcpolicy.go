// SPDX-License-Identifier: Apache-2.0

// Package gcpolicy is the gateway's garbage-collector policy: a heap goal
// kept near a floor while the live heap is small (ByteDance's gctuner),
// Go's default beyond it, and an operator's GOGC always wins.
package gcpolicy

import (
	"log/slog"
	"sync"

	"github.com/bytedance/gopkg/util/gctuner"

	"github.com/dagu-mcp-gateway/gateway/internal/config"
)

// MaxPercent caps how far the collector lets a small heap grow (6x its
// live size), so a tiny live heap never buys a large resident one.
const MaxPercent = 500

// gcTunerOnce starts the tuner once per process: gctuner keeps one global
// tuner whose settings are not meant to change while it runs.
var gcTunerOnce sync.Once

// Apply keeps the heap goal near floor while the live heap is
// small. The MCP SDK allocates about 300 KB per request (a 32 KiB decoder
// buffer per JSON value it reads), and the gateway's live heap is a few
// MiB, so with Go's default the collector would run every few requests;
// BENCHMARKS.md has the measurements. Once the live heap passes half of
// floor the collector behaves as with GOGC=100 again, so large heaps (a
// full run cache, big log windows, workbooks) are collected as usual. An
// operator's GOGC wins: with it set, or floor 0, Go's policy is left alone.
// The first call of a process decides; it reports whether the tuner runs.
func Apply(floor int64, getenv func(string) string) bool {
	if !applies(floor, getenv) {
		return false
	}
	gcTunerOnce.Do(func() {
		gctuner.SetMinGCPercent(100)
		gctuner.SetMaxGCPercent(MaxPercent)
		gctuner.Tuning(uint64(floor))
	})
	return true
}

// applies: a positive floor and no GOGC from the operator.
func applies(floor int64, getenv func(string) string) bool {
	return floor > 0 && getenv("GOGC") == ""
}

// Message is the start-up line that says whether the GC policy is on (see
// Log).
const Message = "GC policy"

// Log writes the start-up line of serve, stdio and demo about the
// GC policy Apply decided: on with its floor, or off and why (the
// operator's GOGC, or a zero floor), so an operator sees which collector
// policy the process runs with.
func Log(log *slog.Logger, floor int64, getenv func(string) string) {
	switch {
	case applies(floor, getenv):
		log.Info(Message, "gc_policy", "on", "gc_heap_floor", config.FormatByteSize(floor), "gc_max_percent", MaxPercent)
	case floor <= 0:
		log.Info(Message, "gc_policy", "off", "reason", "--gc-heap-floor is 0", "gc_heap_floor", config.FormatByteSize(floor))
	default:
		log.Info(Message, "gc_policy", "off", "reason", "GOGC is set", "gogc", getenv("GOGC"))
	}
}
