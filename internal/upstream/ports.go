// SPDX-License-Identifier: Apache-2.0

package upstream

import (
	"context"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient"
)

// This file is the adapter's public face: the read tool's Upstream port,
// one line per method. Each answers in the contract's models through
// port, which holds the read until the first release detection and
// translates its failure once.

// ListDAGs lists DAGs with Dagu's paging and filters.
func (a *Adapter) ListDAGs(ctx context.Context, q model.DAGListQuery) (*model.DAGCollection, error) {
	return port1(ctx, a, a.listDAGs, q)
}

// GetDAG reads one DAG with its latest run.
func (a *Adapter) GetDAG(ctx context.Context, name string) (*model.DAGDetail, error) {
	out, err := port1(ctx, a, a.getDAG, name)
	a.watch(ctx, err, dagPoint(name))
	return out, err
}

// GetDAGSpec reads a DAG's YAML spec, from the spec cache when it holds
// it (which answers without waiting for a detection).
func (a *Adapter) GetDAGSpec(ctx context.Context, name string) (*model.DAGSpec, error) {
	out, err := a.cachedSpec(ctx, name)
	a.watch(ctx, err, dagPoint(name))
	return out, err
}

// DAGNames lists every DAG file name, for did-you-mean suggestions, from
// the name cache when it holds them.
func (a *Adapter) DAGNames(ctx context.Context) ([]string, error) {
	return a.cachedNames(ctx)
}

// SearchDAGs runs a full-text search over DAG specs.
func (a *Adapter) SearchDAGs(ctx context.Context, q model.DAGSearchQuery) (*model.DAGSearch, error) {
	out, err := port1(ctx, a, a.searchDAGs, q)
	a.watch(ctx, err, workspacePoint(q.Workspace))
	return out, err
}

// ListWiki lists wiki pages as a tree or a flat page.
func (a *Adapter) ListWiki(ctx context.Context, q model.WikiListQuery) (*model.WikiCollection, error) {
	out, err := port1(ctx, a, a.listWiki, q)
	a.watch(ctx, err, workspacePoint(q.Workspace))
	return out, err
}

// GetWikiPage reads one wiki page.
func (a *Adapter) GetWikiPage(ctx context.Context, workspace, path string) (*model.WikiPage, error) {
	out, err := port2(ctx, a, a.getWikiPage, workspace, path)
	a.watch(ctx, err, wikiPagePoint(workspace, path), workspacePoint(workspace))
	return out, err
}

// SearchWiki runs a full-text search over wiki pages.
func (a *Adapter) SearchWiki(ctx context.Context, q model.WikiSearchQuery) (*model.WikiSearch, error) {
	out, err := port1(ctx, a, a.searchWiki, q)
	a.watch(ctx, err, workspacePoint(q.Workspace))
	return out, err
}

// ListRuns lists DAG-runs; an unfiltered list covers RunWindow.
func (a *Adapter) ListRuns(ctx context.Context, q model.RunListQuery) (*model.RunCollection, error) {
	return port1(ctx, a, a.listRuns, q)
}

// GetRun reads one run or sub-run with its steps.
func (a *Adapter) GetRun(ctx context.Context, addr model.RunAddress) (*model.RunDetail, error) {
	out, err := port1(ctx, a, a.getRun, addr)
	a.watch(ctx, err, point{}, dagPoint(addr.Name))
	return out, err
}

// GetRunLogs reads a run's scheduler log window and which step logs exist.
func (a *Adapter) GetRunLogs(ctx context.Context, addr model.RunAddress, q model.LogQuery) (*model.RunLogs, error) {
	out, err := port2(ctx, a, a.getRunLogs, addr, q)
	a.watch(ctx, err, point{}, dagPoint(addr.Name))
	return out, err
}

// GetStepLog reads a step's stdout/stderr window.
func (a *Adapter) GetStepLog(ctx context.Context, addr model.StepAddress, q model.LogQuery) (*model.StepLog, error) {
	out, err := port2(ctx, a, a.getStepLog, addr, q)
	a.watch(ctx, err, point{}, dagPoint(addr.Name))
	return out, err
}

// ListForeachItems lists the items of a foreach step.
func (a *Adapter) ListForeachItems(ctx context.Context, addr model.StepAddress, q model.ForeachQuery) (*model.ForeachItems, error) {
	out, err := port2(ctx, a, a.listForeachItems, addr, q)
	a.watch(ctx, err, point{}, dagPoint(addr.Name))
	return out, err
}

// GetForeachItem reads one foreach item and its body steps.
func (a *Adapter) GetForeachItem(ctx context.Context, addr model.StepAddress) (*model.ForeachItem, error) {
	out, err := port1(ctx, a, a.getForeachItem, addr)
	a.watch(ctx, err, point{}, dagPoint(addr.Name))
	return out, err
}

// watch ties a read's outcome to the credential's grant (grantBook): a
// read that succeeded records the points Dagu showed the credential (on
// and also); a read whose point on Dagu refused or did not find, when it
// showed on before, drops the credential's cached answers on every
// replica (grantBook.refused). A run read names no point of its own: the
// run cache tells a narrowed run from a missing one (refusedCached). In
// service mode (no book) it does nothing.
func (a *Adapter) watch(ctx context.Context, err error, on point, also ...point) {
	if a.grants == nil {
		return
	}
	credential := a.client.Fingerprint(ctx)
	if err == nil {
		a.grants.saw(credential, append(also, on)...)
		return
	}
	a.grants.refused(ctx, credential, on, err)
}

// port runs one read of the port: it waits for the first release
// detection (awaitDialect) and translates the read's failure once
// (Adapter.failure). port1 and port2 hand the read its arguments.
func port[R any](ctx context.Context, a *Adapter, read func(context.Context) (R, error)) (R, error) {
	if err := a.awaitDialect(ctx); err != nil {
		var none R
		return none, a.failure(err)
	}
	out, err := read(ctx)
	if err != nil {
		return out, a.failure(err)
	}
	return out, nil
}

func port1[A, R any](ctx context.Context, a *Adapter, read func(context.Context, A) (R, error), x A) (R, error) {
	return port(ctx, a, func(ctx context.Context) (R, error) { return read(ctx, x) })
}

func port2[A, B, R any](ctx context.Context, a *Adapter, read func(context.Context, A, B) (R, error), x A, y B) (R, error) {
	return port(ctx, a, func(ctx context.Context) (R, error) { return read(ctx, x, y) })
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
