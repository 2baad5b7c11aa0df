package upstream

import (
	"context"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
)

// This file is the adapter's public face: the read tool's Upstream port.
// Each method answers in the contract's models and reports every failure
// as a *model.Failure (or a context error), translated once here.

// ListDAGs lists DAGs with Dagu's paging and filters.
func (a *Adapter) ListDAGs(ctx context.Context, q model.DAGListQuery) (*model.DAGCollection, error) {
	return answer(a.listDAGs(ctx, q))
}

// GetDAG reads one DAG with its latest run.
func (a *Adapter) GetDAG(ctx context.Context, name string) (*model.DAGDetail, error) {
	return answer(a.getDAG(ctx, name))
}

// GetDAGSpec reads a DAG's YAML spec (cached for CacheTTL).
func (a *Adapter) GetDAGSpec(ctx context.Context, name string) (*model.DAGSpec, error) {
	return answer(a.getDAGSpec(ctx, name))
}

// DAGNames lists every DAG file name, for did-you-mean suggestions.
func (a *Adapter) DAGNames(ctx context.Context) ([]string, error) {
	return answer(a.dagNames(ctx))
}

// SearchDAGs runs a full-text search over DAG specs.
func (a *Adapter) SearchDAGs(ctx context.Context, q model.DAGSearchQuery) (*model.DAGSearch, error) {
	return answer(a.searchDAGs(ctx, q))
}

// ListWiki lists wiki pages as a tree or a flat page.
func (a *Adapter) ListWiki(ctx context.Context, q model.WikiListQuery) (*model.WikiCollection, error) {
	return answer(a.listWiki(ctx, q))
}

// GetWikiPage reads one wiki page.
func (a *Adapter) GetWikiPage(ctx context.Context, workspace, path string) (*model.WikiPage, error) {
	return answer(a.getWikiPage(ctx, workspace, path))
}

// SearchWiki runs a full-text search over wiki pages.
func (a *Adapter) SearchWiki(ctx context.Context, q model.WikiSearchQuery) (*model.WikiSearch, error) {
	return answer(a.searchWiki(ctx, q))
}

// ListRuns lists DAG-runs; an unfiltered list covers RunWindow.
func (a *Adapter) ListRuns(ctx context.Context, q model.RunListQuery) (*model.RunCollection, error) {
	return answer(a.listRuns(ctx, q))
}

// GetRun reads one run or sub-run with its steps.
func (a *Adapter) GetRun(ctx context.Context, addr model.RunAddress) (*model.RunDetail, error) {
	return answer(a.getRun(ctx, addr))
}

// GetRunLogs reads a run's scheduler log window and which step logs exist.
func (a *Adapter) GetRunLogs(ctx context.Context, addr model.RunAddress, q model.LogQuery) (*model.RunLogs, error) {
	return answer(a.getRunLogs(ctx, addr, q))
}

// GetStepLog reads a step's stdout/stderr window.
func (a *Adapter) GetStepLog(ctx context.Context, addr model.StepAddress, q model.LogQuery) (*model.StepLog, error) {
	return answer(a.getStepLog(ctx, addr, q))
}

// ListForeachItems lists the items of a foreach step.
func (a *Adapter) ListForeachItems(ctx context.Context, addr model.StepAddress, q model.ForeachQuery) (*model.ForeachItems, error) {
	return answer(a.listForeachItems(ctx, addr, q))
}

// GetForeachItem reads one foreach item and its body steps.
func (a *Adapter) GetForeachItem(ctx context.Context, addr model.StepAddress) (*model.ForeachItem, error) {
	return answer(a.getForeachItem(ctx, addr))
}

// answer translates a read's error into the port's failure vocabulary.
func answer[T any](v T, err error) (T, error) {
	return v, failureOf(err)
}
