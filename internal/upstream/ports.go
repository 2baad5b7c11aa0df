// SPDX-License-Identifier: Apache-2.0

package upstream

import (
	"context"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient"
)

// This file is the adapter's public face: the read tool's Upstream port.
// Each method answers in the contract's models and reports every failure
// as a *model.Failure (or a context error), translated once here.

// ListDAGs lists DAGs with Dagu's paging and filters.
func (a *Adapter) ListDAGs(ctx context.Context, q model.DAGListQuery) (*model.DAGCollection, error) {
	if err := a.awaitDialect(ctx); err != nil {
		return nil, a.failure(err)
	}
	out, err := a.listDAGs(ctx, q)
	return out, a.failure(err)
}

// GetDAG reads one DAG with its latest run.
func (a *Adapter) GetDAG(ctx context.Context, name string) (*model.DAGDetail, error) {
	if err := a.awaitDialect(ctx); err != nil {
		return nil, a.failure(err)
	}
	out, err := a.getDAG(ctx, name)
	return out, a.failure(err)
}

// GetDAGSpec reads a DAG's YAML spec.
func (a *Adapter) GetDAGSpec(ctx context.Context, name string) (*model.DAGSpec, error) {
	if err := a.awaitDialect(ctx); err != nil {
		return nil, a.failure(err)
	}
	out, err := a.getDAGSpec(ctx, name)
	return out, a.failure(err)
}

// DAGNames lists every DAG file name, for did-you-mean suggestions.
func (a *Adapter) DAGNames(ctx context.Context) ([]string, error) {
	if err := a.awaitDialect(ctx); err != nil {
		return nil, a.failure(err)
	}
	out, err := a.dagNames(ctx)
	return out, a.failure(err)
}

// SearchDAGs runs a full-text search over DAG specs.
func (a *Adapter) SearchDAGs(ctx context.Context, q model.DAGSearchQuery) (*model.DAGSearch, error) {
	if err := a.awaitDialect(ctx); err != nil {
		return nil, a.failure(err)
	}
	out, err := a.searchDAGs(ctx, q)
	return out, a.failure(err)
}

// ListWiki lists wiki pages as a tree or a flat page.
func (a *Adapter) ListWiki(ctx context.Context, q model.WikiListQuery) (*model.WikiCollection, error) {
	if err := a.awaitDialect(ctx); err != nil {
		return nil, a.failure(err)
	}
	out, err := a.listWiki(ctx, q)
	return out, a.failure(err)
}

// GetWikiPage reads one wiki page.
func (a *Adapter) GetWikiPage(ctx context.Context, workspace, path string) (*model.WikiPage, error) {
	if err := a.awaitDialect(ctx); err != nil {
		return nil, a.failure(err)
	}
	out, err := a.getWikiPage(ctx, workspace, path)
	return out, a.failure(err)
}

// SearchWiki runs a full-text search over wiki pages.
func (a *Adapter) SearchWiki(ctx context.Context, q model.WikiSearchQuery) (*model.WikiSearch, error) {
	if err := a.awaitDialect(ctx); err != nil {
		return nil, a.failure(err)
	}
	out, err := a.searchWiki(ctx, q)
	return out, a.failure(err)
}

// ListRuns lists DAG-runs; an unfiltered list covers RunWindow.
func (a *Adapter) ListRuns(ctx context.Context, q model.RunListQuery) (*model.RunCollection, error) {
	if err := a.awaitDialect(ctx); err != nil {
		return nil, a.failure(err)
	}
	out, err := a.listRuns(ctx, q)
	return out, a.failure(err)
}

// GetRun reads one run or sub-run with its steps.
func (a *Adapter) GetRun(ctx context.Context, addr model.RunAddress) (*model.RunDetail, error) {
	if err := a.awaitDialect(ctx); err != nil {
		return nil, a.failure(err)
	}
	out, err := a.getRun(ctx, addr)
	return out, a.failure(err)
}

// GetRunLogs reads a run's scheduler log window and which step logs exist.
func (a *Adapter) GetRunLogs(ctx context.Context, addr model.RunAddress, q model.LogQuery) (*model.RunLogs, error) {
	if err := a.awaitDialect(ctx); err != nil {
		return nil, a.failure(err)
	}
	out, err := a.getRunLogs(ctx, addr, q)
	return out, a.failure(err)
}

// GetStepLog reads a step's stdout/stderr window.
func (a *Adapter) GetStepLog(ctx context.Context, addr model.StepAddress, q model.LogQuery) (*model.StepLog, error) {
	if err := a.awaitDialect(ctx); err != nil {
		return nil, a.failure(err)
	}
	out, err := a.getStepLog(ctx, addr, q)
	return out, a.failure(err)
}

// ListForeachItems lists the items of a foreach step.
func (a *Adapter) ListForeachItems(ctx context.Context, addr model.StepAddress, q model.ForeachQuery) (*model.ForeachItems, error) {
	if err := a.awaitDialect(ctx); err != nil {
		return nil, a.failure(err)
	}
	out, err := a.listForeachItems(ctx, addr, q)
	return out, a.failure(err)
}

// GetForeachItem reads one foreach item and its body steps.
func (a *Adapter) GetForeachItem(ctx context.Context, addr model.StepAddress) (*model.ForeachItem, error) {
	if err := a.awaitDialect(ctx); err != nil {
		return nil, a.failure(err)
	}
	out, err := a.getForeachItem(ctx, addr)
	return out, a.failure(err)
}

// failure translates a read's error into the port's failure vocabulary. A
// router-level 404 on any route means the server lacks a route the last
// detection expected (Dagu was replaced), so detection runs again soon.
func (a *Adapter) failure(err error) error {
	if restclient.IsRouteMissing(err) {
		a.redetectSoon()
	}
	return failureOf(err)
}
