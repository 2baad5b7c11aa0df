// SPDX-License-Identifier: Apache-2.0

package main

// The Go runtime's soft memory limit (--memory-limit): derived from what
// the settings let the gateway hold, unless the operator chose one
// (GOMEMLIMIT, or a size) or none (off).

import (
	"log/slog"

	"github.com/dagu-mcp-gateway/gateway/internal/config"
	"github.com/dagu-mcp-gateway/gateway/internal/reference"
	"github.com/dagu-mcp-gateway/gateway/internal/upstream"
)

// memoryLimitBaseline is the derived limit's room for the process itself:
// a gateway with nothing in flight and empty caches holds a few MiB of
// heap, which its collector lets grow to --gc-heap-floor (20 MiB), plus
// goroutine stacks and the runtime's own data.
const memoryLimitBaseline = 32 << 20

// memoryLimit is the soft memory limit a process runs with.
type memoryLimit struct {
	// bytes is the limit the gateway sets; 0 when it sets none.
	bytes int64
	// source says where it comes from: derived (--memory-limit auto),
	// flag (a size), off, or GOMEMLIMIT (the runtime's own, not set
	// again).
	source string
	// budget and caches are the parts of a derived limit: --memory-budget
	// and the caches' byte bounds.
	budget, caches int64
}

// The sources of a memory limit.
const (
	memoryLimitDerived = "derived"
	memoryLimitFlag    = "flag"
	memoryLimitOff     = "off"
	memoryLimitEnv     = "GOMEMLIMIT"
)

// cacheBounds is the most the gateway's caches hold together with cfg:
// the adapter's stores (one set per process, however many instances) and
// the reference directory's files.
func cacheBounds(cfg config.Config) int64 {
	n := upstream.StoresOptions{DAGCacheTTL: cfg.CacheTTL, ListCacheTTL: cfg.ListCacheTTL, RunCacheBytes: cfg.RunCacheSize}.MaxBytes()
	if cfg.ReferenceDir != "" {
		n += reference.DirCacheBytes
	}
	return n
}

// decideMemoryLimit is the limit cfg and the environment ask for. An
// operator's GOMEMLIMIT wins: the runtime has read it already. auto is
// what the settings let the gateway hold: every request, answer and Dagu
// body in flight (--memory-budget; each reservation is several times what
// it holds), the caches' bounds and memoryLimitBaseline. Workbook reads,
// bounded by --workbook-max-memory each, are not in it: when they hold
// that much on top of a full budget the collector runs more often.
func decideMemoryLimit(cfg config.Config, getenv func(string) string) memoryLimit {
	if getenv("GOMEMLIMIT") != "" {
		return memoryLimit{source: memoryLimitEnv}
	}
	size, auto, err := config.ParseMemoryLimit(cfg.MemoryLimit)
	switch {
	case err != nil: // Validate refuses it before this runs
		return memoryLimit{source: memoryLimitOff}
	case auto:
		caches := cacheBounds(cfg)
		return memoryLimit{bytes: cfg.MemoryBudget + caches + memoryLimitBaseline, source: memoryLimitDerived, budget: cfg.MemoryBudget, caches: caches}
	case size > 0:
		return memoryLimit{bytes: size, source: memoryLimitFlag}
	default:
		return memoryLimit{source: memoryLimitOff}
	}
}

// applyMemoryLimit sets the limit through set (debug.SetMemoryLimit in
// the process; nil in tests that run the command in-process, whose own
// runtime is left alone).
func applyMemoryLimit(l memoryLimit, set func(int64) int64) {
	if l.bytes > 0 && set != nil {
		set(l.bytes)
	}
}

// memoryLimitMessage is the start-up line that says which memory limit
// applies (see logMemoryLimit).
const memoryLimitMessage = "memory limit"

// logMemoryLimit writes the start-up line of serve, stdio and demo about
// the memory limit decideMemoryLimit chose, with its parts when derived.
func logMemoryLimit(log *slog.Logger, l memoryLimit, getenv func(string) string) {
	attrs := []any{"memory_limit_source", l.source}
	switch l.source {
	case memoryLimitEnv:
		attrs = append(attrs, "gomemlimit", getenv("GOMEMLIMIT"))
	case memoryLimitOff:
	default:
		attrs = append(attrs, "memory_limit", config.FormatByteSize(l.bytes))
	}
	if l.source == memoryLimitDerived {
		attrs = append(attrs, "memory_budget", config.FormatByteSize(l.budget), "cache_bounds", config.FormatByteSize(l.caches),
			"baseline", config.FormatByteSize(memoryLimitBaseline))
	}
	log.Info(memoryLimitMessage, attrs...)
}
