// SPDX-License-Identifier: Apache-2.0

package upstream

import (
	"context"
	"net/http"

	"github.com/dagu-mcp-gateway/gateway/internal/restclient"

	"github.com/dagu-mcp-gateway/gateway/internal/mapping"
	"github.com/dagu-mcp-gateway/gateway/internal/model"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient/gen"
)

// listForeachItems lists a page of a foreach step's items, from the
// foreach route when the server has it (1 call) or from the summary an
// older server writes to the step's stdout once it finishes (run details
// plus one download: 2 calls sent together). A "latest" root costs one more
// call, except on the summary path of a root run, which reuses the details
// it read; no release accepts "latest" in the foreach or download routes,
// so that read waits on two round trips.
//
// When the last detection found the routes, or none has succeeded, the
// route is tried first; a router-level 404 there means the server changed
// (or never had them): a re-detection is started and this read falls back
// to the summary. A release with neither (1.x) is answered by
// withoutForeachSource.
func (a *Adapter) listForeachItems(ctx context.Context, addr model.StepAddress, q model.ForeachQuery) (*model.ForeachItems, error) {
	if !hasForeachSource(a.capsOrCurrent()) {
		return nil, a.withoutForeachSource(ctx, addr, restclient.RouteForeachItems)
	}
	t, err := a.resolveRun(ctx, addr.RunAddress)
	if err != nil {
		return nil, err
	}
	out, err := a.foreachItemsOf(ctx, t, addr.StepName, q)
	if out != nil {
		out.DAGRunID = t.Ref.RunID
	}
	return out, err
}

func (a *Adapter) foreachItemsOf(ctx context.Context, t runTarget, step string, q model.ForeachQuery) (*model.ForeachItems, error) {
	if a.foreachRoutesMaybe() {
		out, err := a.routeItems(ctx, t, step, q)
		if !restclient.IsRouteMissing(err) {
			return out, err
		}
		a.redetectSoon()
	}
	return a.aggregateItems(ctx, t, step, q)
}

// getForeachItem reads one item with its body steps, by the same plan as
// listForeachItems. The summary of an older server records no body steps.
func (a *Adapter) getForeachItem(ctx context.Context, addr model.StepAddress) (*model.ForeachItem, error) {
	if !hasForeachSource(a.capsOrCurrent()) {
		return nil, a.withoutForeachSource(ctx, addr, restclient.RouteForeachItem)
	}
	t, err := a.resolveRun(ctx, addr.RunAddress)
	if err != nil {
		return nil, err
	}
	out, err := a.foreachItemOf(ctx, t, addr.StepName, addr.Item)
	if out != nil {
		out.DAGRunID = t.Ref.RunID
	}
	return out, err
}

func (a *Adapter) foreachItemOf(ctx context.Context, t runTarget, step, item string) (*model.ForeachItem, error) {
	if a.foreachRoutesMaybe() {
		out, err := a.routeItem(ctx, t, step, item)
		if !restclient.IsRouteMissing(err) {
			return out, err
		}
		a.redetectSoon()
	}
	return a.aggregateItem(ctx, t, step, item)
}

// withoutForeachSource answers a foreach read on a release that has
// nothing foreach items are read from (1.x): see unsupportedStepRead.
func (a *Adapter) withoutForeachSource(ctx context.Context, addr model.StepAddress, route string) error {
	return a.unsupportedStepRead(ctx, addr, route, model.ReasonNoForeach)
}

// unsupportedStepRead answers a read of a step's foreach records that this
// release cannot serve. The run and step are looked up first, as every
// other run read does: one read of the run's details (the one resolving
// "latest" makes, or the cached one), so a missing DAG, run, sub-run or
// step is not found and blames the value at fault, and where the release
// has foreach steps, a step that is not one is not found too. Only a step
// that could have the records is unsupported (reason says why).
func (a *Adapter) unsupportedStepRead(ctx context.Context, addr model.StepAddress, route string, reason model.FailureReason) error {
	t, err := a.resolveRun(ctx, addr.RunAddress)
	if err != nil {
		return err
	}
	d, err := a.runDetails(ctx, t)
	if err != nil {
		return err
	}
	details := a.client.RunRoutes(t.Ref).Details
	switch n := stepNode(d, addr.StepName); {
	case n == nil:
		return notFound(details, model.FieldStepName, "")
	case hasForeachSource(a.capsOrCurrent()) && !isForeach(n):
		return notForeachStep(details, addr.StepName)
	}
	return unsupported(route, reason, nil)
}

// routeItems reads the foreach list route. A router-level 404 is returned
// as is, for the caller to fall back on.
func (a *Adapter) routeItems(ctx context.Context, t runTarget, step string, q model.ForeachQuery) (*model.ForeachItems, error) {
	list, err := a.client.ListForeachItems(ctx, t.Ref, step, restclient.ForeachQuery{
		Parent: q.Parent, Status: gen.ForeachStatusBucket(q.Status), Page: q.Page, PerPage: q.PerPage,
	})
	if err != nil {
		field := ""
		if q.Parent != "" {
			field = model.ParamParent
		}
		return nil, a.foreachRouteError(ctx, t, step, err, field)
	}
	out := mapping.ForeachItems(list, runURIs(t), step, q)
	return &out, nil
}

// routeItem reads the foreach item route, like routeItems.
func (a *Adapter) routeItem(ctx context.Context, t runTarget, step, item string) (*model.ForeachItem, error) {
	it, err := a.client.GetForeachItem(ctx, t.Ref, step, item)
	if err != nil {
		return nil, a.foreachRouteError(ctx, t, step, err, model.FieldItem)
	}
	out := mapping.ForeachItem(it, runURIs(t), step)
	return &out, nil
}

// foreachRouteError explains a foreach route's failure: a handler's 404
// is told apart by missingForeach, and a 400 blames the item path (or
// parent) Dagu could not read. itemField may be "" when no such value was
// sent.
func (a *Adapter) foreachRouteError(ctx context.Context, t runTarget, step string, err error, itemField string) error {
	switch {
	case restclient.IsRouteMissing(err):
		return err
	case isHTTP(err, http.StatusNotFound):
		return a.missingForeach(ctx, t, step, err, itemField)
	case itemField != "" && isHTTP(err, http.StatusBadRequest):
		return withField(err, itemField)
	}
	return err
}

// missingForeach tells a foreach route's 404 apart with one read of the
// run's details: the run (or sub-run), the step, a step that is not a
// foreach step, or else the item (itemField; "" leaves err untagged).
func (a *Adapter) missingForeach(ctx context.Context, t runTarget, step string, err error, itemField string) error {
	d, derr := a.runDetails(ctx, t)
	if derr != nil {
		return derr
	}
	n := stepNode(d, step)
	switch {
	case n == nil:
		return withField(err, model.FieldStepName)
	case !isForeach(n):
		return notForeachStep(a.client.RunRoutes(t.Ref).Details, step)
	case itemField == "":
		return err
	}
	return withField(err, itemField)
}
