// SPDX-License-Identifier: Apache-2.0

package main

import (
	"fmt"
	"log/slog"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/dagu-mcp-gateway/gateway/internal/config"
	"github.com/dagu-mcp-gateway/gateway/internal/readtool"
	"github.com/dagu-mcp-gateway/gateway/internal/reference"
	"github.com/dagu-mcp-gateway/gateway/internal/sharedstate"
	"github.com/dagu-mcp-gateway/gateway/internal/trust"
	"github.com/dagu-mcp-gateway/gateway/internal/workbook"
)

// toolParts are the read tool's parts that do not depend on the Dagu
// server: the reference topics, the workbooks and the per-caller limits
// (--rate-limit, with its cluster-wide form, and --caller-concurrency). A
// gateway in front of several Dagu servers builds them once and hands the
// same parts to every instance's tool, so the limits and the workbook
// concurrency are the process's, never one per instance.
type toolParts struct {
	references  readtool.References
	workbooks   readtool.Workbooks
	limiter     readtool.Limiter
	concurrency readtool.ConcurrencyLimiter
}

// referenceTTL is how long the reference topics are kept before their
// files are read again: --cache-ttl, and at least a second even with
// caching off.
func referenceTTL(cfg config.Config) time.Duration {
	return max(cfg.CacheTTL, time.Second)
}

// newToolParts builds the parts; shared, when set, carries the cluster-wide rate
// limit in front of the tool's own. The reference topics' metrics go to
// reg.
func newToolParts(cfg config.Config, log *slog.Logger, reg prometheus.Registerer, shared *sharedstate.Store) (*toolParts, error) {
	refs, err := reference.New(reference.Options{Dir: cfg.ReferenceDir, TTL: referenceTTL(cfg), Registerer: reg})
	if err != nil {
		return nil, fmt.Errorf("reference topics: %w", err)
	}
	books, err := workbook.New(workbook.Config{
		Roots:       cfg.WorkbookRoots,
		MaxBytes:    cfg.WorkbookMaxBytes,
		MaxRows:     cfg.WorkbookMaxRows,
		MaxSheets:   cfg.WorkbookMaxSheets,
		MaxMemory:   cfg.WorkbookMaxMemory,
		Concurrency: cfg.WorkbookConcurrency,
	})
	if err != nil {
		return nil, fmt.Errorf("workbooks: %w", err)
	}
	if len(cfg.WorkbookRoots) == 0 {
		log.Info("workbook reads are not confined: any .xlsx/.xlsm file this process can read may be profiled; set --workbook-root in production")
	}
	limit, err := sharedRateLimit(cfg, shared)
	if err != nil {
		return nil, fmt.Errorf("shared state: %w", err)
	}
	limiter, err := callerLimits(cfg, limit)
	if err != nil {
		return nil, err
	}
	return &toolParts{references: refs, workbooks: books, limiter: limiter, concurrency: callerConcurrency(cfg)}, nil
}

// callerConcurrency is --caller-concurrency's limit of each caller's reads
// in flight, nil when off.
func callerConcurrency(cfg config.Config) readtool.ConcurrencyLimiter {
	if c := trust.NewConcurrency(cfg.CallerConcurrency); c != nil {
		return c
	}
	return nil
}

// callerLimits are --rate-limit's per-caller buckets, in front of the
// read tool (nil when off); shared, when set, is the cluster-wide form
// that decides first.
func callerLimits(cfg config.Config, shared *clusterRateLimit) (readtool.Limiter, error) {
	var clusterWide trust.SharedRateLimiter
	if shared != nil {
		clusterWide = shared
	}
	limits, err := trust.NewLimits(cfg.RateLimit, cfg.RateBurst, clusterWide, nil)
	if err != nil || limits == nil {
		return nil, err
	}
	return limits, nil
}
