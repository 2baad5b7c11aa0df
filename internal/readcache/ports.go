// SPDX-License-Identifier: Apache-2.0

package readcache

import (
	"context"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
)

// Ports is the read tool's Upstream port (readtool.Upstream), restated
// method for method so that this package, which package upstream also
// uses, never depends on the tool. A test checks that the two interfaces
// stay the same.
type Ports interface {
	ListDAGs(ctx context.Context, q model.DAGListQuery) (*model.DAGCollection, error)
	GetDAG(ctx context.Context, name string) (*model.DAGDetail, error)
	GetDAGSpec(ctx context.Context, name string) (*model.DAGSpec, error)
	DAGNames(ctx context.Context) ([]string, error)
	SearchDAGs(ctx context.Context, q model.DAGSearchQuery) (*model.DAGSearch, error)

	ListWiki(ctx context.Context, q model.WikiListQuery) (*model.WikiCollection, error)
	GetWikiPage(ctx context.Context, workspace, path string) (*model.WikiPage, error)
	SearchWiki(ctx context.Context, q model.WikiSearchQuery) (*model.WikiSearch, error)

	ListRuns(ctx context.Context, q model.RunListQuery) (*model.RunCollection, error)
	GetRun(ctx context.Context, a model.RunAddress) (*model.RunDetail, error)
	GetRunLogs(ctx context.Context, a model.RunAddress, q model.LogQuery) (*model.RunLogs, error)
	GetStepLog(ctx context.Context, a model.StepAddress, q model.LogQuery) (*model.StepLog, error)

	ListForeachItems(ctx context.Context, a model.StepAddress, q model.ForeachQuery) (*model.ForeachItems, error)
	GetForeachItem(ctx context.Context, a model.StepAddress) (*model.ForeachItem, error)
}
