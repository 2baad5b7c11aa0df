// SPDX-License-Identifier: Apache-2.0

package readtool

import (
	"context"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
)

// The ports below are everything the read tool needs from the outside
// world, in the contract's own models. Every port reports failures as
// *model.Failure values (or errors wrapping one, or context errors); the
// read tool maps them to contract codes in classify.go and never sees REST.

// Upstream is everything the read tool needs from Dagu: one small port
// per family of targets. Package upstream implements it over Dagu's REST
// API; a test fake embeds readtooltest.Unsupported and overrides the
// methods its test reads, so a new port method breaks no fake.
type Upstream interface {
	DAGReader
	WikiReader
	RunReader
	ForeachReader
}

// DAGReader serves the DAG targets: dags, dag, dag_spec, dag_search.
type DAGReader interface {
	ListDAGs(ctx context.Context, q model.DAGListQuery) (*model.DAGCollection, error)
	GetDAG(ctx context.Context, name string) (*model.DAGDetail, error)
	GetDAGSpec(ctx context.Context, name string) (*model.DAGSpec, error)
	// DAGNames lists every DAG file name, for did-you-mean suggestions.
	DAGNames(ctx context.Context) ([]string, error)
	SearchDAGs(ctx context.Context, q model.DAGSearchQuery) (*model.DAGSearch, error)
}

// WikiReader serves the wiki targets: wiki, wiki_page, wiki_search.
type WikiReader interface {
	ListWiki(ctx context.Context, q model.WikiListQuery) (*model.WikiCollection, error)
	GetWikiPage(ctx context.Context, workspace, path string) (*model.WikiPage, error)
	SearchWiki(ctx context.Context, q model.WikiSearchQuery) (*model.WikiSearch, error)
}

// RunReader serves the run and log targets: runs, run, run_logs, step_log.
type RunReader interface {
	ListRuns(ctx context.Context, q model.RunListQuery) (*model.RunCollection, error)
	GetRun(ctx context.Context, a model.RunAddress) (*model.RunDetail, error)
	GetRunLogs(ctx context.Context, a model.RunAddress, q model.LogQuery) (*model.RunLogs, error)
	GetStepLog(ctx context.Context, a model.StepAddress, q model.LogQuery) (*model.StepLog, error)
}

// ForeachReader serves the foreach targets: foreach_items, foreach_item.
type ForeachReader interface {
	ListForeachItems(ctx context.Context, a model.StepAddress, q model.ForeachQuery) (*model.ForeachItems, error)
	GetForeachItem(ctx context.Context, a model.StepAddress) (*model.ForeachItem, error)
}

// References serves the reference topics.
type References interface {
	// Topics lists the topics in registry order.
	Topics() []model.ReferenceItem
	// Topic returns a topic's Markdown; an unknown topic is a
	// model.FailureNotFound failure blaming the name field.
	Topic(ctx context.Context, name string) (string, error)
}

// Workbooks profiles local workbooks.
type Workbooks interface {
	Profile(ctx context.Context, path, password string) (*model.Workbook, error)
}

// Limiter admits the reads of the caller a request's context carries
// (reqctx.Info.Caller): the per-caller limits, which live with the trust
// decision (trust.Limits) and are handed in by cmd/gateway.
type Limiter interface {
	// Admit takes one read of the caller's allowance; when it is refused,
	// retryAfter says how long to wait.
	Admit(ctx context.Context) (retryAfter time.Duration, ok bool)
}

// ConcurrencyLimiter bounds the reads in flight of the caller a request's
// context carries (trust.Concurrency, handed in by cmd/gateway).
type ConcurrencyLimiter interface {
	// Acquire takes one of the caller's places; release must be called
	// once when ok.
	Acquire(ctx context.Context) (release func(), ok bool)
}
