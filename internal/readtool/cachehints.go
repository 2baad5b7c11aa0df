// SPDX-License-Identifier: Apache-2.0

package readtool

import (
	"context"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
	"github.com/dagu-mcp-gateway/gateway/internal/reqctx"
)

// The cacheScope values of MCP 2026-07-28 (SEP-2549).
const (
	// scopePrivate: only the requesting user's client may keep the
	// answer. Every answer built from a caller's Dagu data is private:
	// what a caller may read depends on its credential.
	scopePrivate = "private"
	// scopePublic: any client or intermediary may keep and share the
	// answer. Only what is the same for every caller is public.
	scopePublic = "public"
)

// CacheLifetimes are how long the gateway itself keeps each kind of
// answer. A resources/read answer tells the client to keep it no longer
// (ttlMs): a client that reads again after that gets what the gateway
// would answer, not the gateway's own cached copy of it.
type CacheLifetimes struct {
	// Lists is how long a dags or runs answer is reused
	// (--list-cache-ttl); it also bounds a read addressed by latest,
	// whose run the gateway resolves again after that long.
	Lists time.Duration
	// Specs is how long a DAG spec is kept (--cache-ttl).
	Specs time.Duration
	// FinishedRuns is how long the run cache keeps a final run's details
	// and logs; 0 when the run cache is off.
	FinishedRuns time.Duration
	// References is how long the reference topics are kept before their
	// files are read again.
	References time.Duration
}

// lifetime is which of the gateway's caches keeps a target's answers.
type lifetime int

const (
	// uncached: the gateway reads Dagu on every read (searches, wiki,
	// foreach items), so a client should too.
	uncached lifetime = iota
	// listLifetime: the list micro-cache (CacheLifetimes.Lists).
	listLifetime
	// specLifetime: the DAG spec cache (CacheLifetimes.Specs).
	specLifetime
	// runLifetime: the run cache, for a final run only; a run still
	// running changes with every read.
	runLifetime
	// referenceLifetime: the reference topics, the same for every caller.
	referenceLifetime
)

// cacheHints are the ttlMs and cacheScope of a successful resources/read
// of c, whose data is data.
func (t *Tool) cacheHints(c *call, data any) mcp.Cacheable {
	l := t.lifetimes
	switch c.spec.lifetime {
	case referenceLifetime:
		return mcp.Cacheable{TTLMs: millis(l.References), CacheScope: scopePublic}
	case listLifetime:
		return private(l.Lists)
	case specLifetime:
		return private(l.Specs)
	case runLifetime:
		if !finalRun(data) {
			return private(0)
		}
		if c.in.get(fDAGRunID) == model.LatestRun {
			return private(min(l.FinishedRuns, l.Lists))
		}
		return private(l.FinishedRuns)
	}
	return private(0)
}

// ListHints are the cache hints of the server's lists (tools, prompts,
// resources, resource templates) and of server/discover for the caller of
// ctx: kept as long as the reference topics, the one part of them that
// changes while the gateway runs (resources/list names the operator's
// topics); public, the same for every caller, unless an access rule
// narrows the caller's lists (private then).
func (t *Tool) ListHints(ctx context.Context) mcp.Cacheable {
	if info, _ := reqctx.From(ctx); info.Targets != nil {
		return private(t.lifetimes.References)
	}
	return mcp.Cacheable{TTLMs: millis(t.lifetimes.References), CacheScope: scopePublic}
}

// private is the hint of a caller's own answer kept for d.
func private(d time.Duration) mcp.Cacheable {
	return mcp.Cacheable{TTLMs: millis(d), CacheScope: scopePrivate}
}

// millis is d in whole milliseconds, 0 for a negative d.
func millis(d time.Duration) int {
	return int(max(d, 0).Milliseconds())
}

// finalRun reports whether data is a run read that knows its run can no
// longer change.
func finalRun(data any) bool {
	switch d := unwrapped(data).(type) {
	case *model.RunDetail:
		return d.Final
	case *model.RunLogs:
		return d.Final
	case *model.StepLog:
		return d.Final
	}
	return false
}
