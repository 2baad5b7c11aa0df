// SPDX-License-Identifier: Apache-2.0

// Package readtooltest holds what tests of several packages need to fake
// the read tool's ports. Only test files import it (internal/archtest
// checks).
package readtooltest

import (
	"context"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
)

// Unsupported implements every method of readtool.Upstream with a
// model.FailureUnsupported failure. A fake embeds it and overrides the
// reads its test makes; a read the fake did not expect then answers the
// contract's "needs a newer Dagu" error instead of panicking, and a new
// port method is added here once instead of in every fake.
type Unsupported struct{}

func unsupported() error { return &model.Failure{Kind: model.FailureUnsupported} }

// ListDAGs implements readtool.DAGReader.
func (Unsupported) ListDAGs(context.Context, model.DAGListQuery) (*model.DAGCollection, error) {
	return nil, unsupported()
}

// GetDAG implements readtool.DAGReader.
func (Unsupported) GetDAG(context.Context, string) (*model.DAGDetail, error) {
	return nil, unsupported()
}

// GetDAGSpec implements readtool.DAGReader.
func (Unsupported) GetDAGSpec(context.Context, string) (*model.DAGSpec, error) {
	return nil, unsupported()
}

// DAGNames implements readtool.DAGReader.
func (Unsupported) DAGNames(context.Context) ([]string, error) { return nil, unsupported() }

// SearchDAGs implements readtool.DAGReader.
func (Unsupported) SearchDAGs(context.Context, model.DAGSearchQuery) (*model.DAGSearch, error) {
	return nil, unsupported()
}

// ListWiki implements readtool.WikiReader.
func (Unsupported) ListWiki(context.Context, model.WikiListQuery) (*model.WikiCollection, error) {
	return nil, unsupported()
}

// GetWikiPage implements readtool.WikiReader.
func (Unsupported) GetWikiPage(context.Context, string, string) (*model.WikiPage, error) {
	return nil, unsupported()
}

// SearchWiki implements readtool.WikiReader.
func (Unsupported) SearchWiki(context.Context, model.WikiSearchQuery) (*model.WikiSearch, error) {
	return nil, unsupported()
}

// ListRuns implements readtool.RunReader.
func (Unsupported) ListRuns(context.Context, model.RunListQuery) (*model.RunCollection, error) {
	return nil, unsupported()
}

// GetRun implements readtool.RunReader.
func (Unsupported) GetRun(context.Context, model.RunAddress) (*model.RunDetail, error) {
	return nil, unsupported()
}

// GetRunLogs implements readtool.RunReader.
func (Unsupported) GetRunLogs(context.Context, model.RunAddress, model.LogQuery) (*model.RunLogs, error) {
	return nil, unsupported()
}

// GetStepLog implements readtool.RunReader.
func (Unsupported) GetStepLog(context.Context, model.StepAddress, model.LogQuery) (*model.StepLog, error) {
	return nil, unsupported()
}

// ListForeachItems implements readtool.ForeachReader.
func (Unsupported) ListForeachItems(context.Context, model.StepAddress, model.ForeachQuery) (*model.ForeachItems, error) {
	return nil, unsupported()
}

// GetForeachItem implements readtool.ForeachReader.
func (Unsupported) GetForeachItem(context.Context, model.StepAddress) (*model.ForeachItem, error) {
	return nil, unsupported()
}
