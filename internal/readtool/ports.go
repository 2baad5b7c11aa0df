package readtool

import (
	"context"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
)

// Upstream is everything the read tool needs from Dagu, in the contract's
// own models. The REST adapter in package restclient implements it; tests
// may use any fake. Errors are *restclient.Error values (or wrap one), or
// context errors.
type Upstream interface {
	ListDAGs(ctx context.Context, q model.DAGListQuery) (*model.DAGCollection, error)
	GetDAG(ctx context.Context, name string) (*model.DAGDetail, error)
	GetDAGSpec(ctx context.Context, name string) (*model.DAGSpec, error)
	// DAGNames lists every DAG file name, for did-you-mean suggestions.
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

// References serves the reference topics.
type References interface {
	// Topics lists the topics in registry order.
	Topics() []model.ReferenceItem
	// Topic returns a topic's Markdown; an unknown topic is an error for
	// which IsNotFound reports true.
	Topic(ctx context.Context, name string) (string, error)
}

// Workbooks profiles local workbooks. Its errors are *workbook.Error values.
type Workbooks interface {
	Profile(ctx context.Context, path, password string) (*model.Workbook, error)
}
