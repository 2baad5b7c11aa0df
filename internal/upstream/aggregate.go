// SPDX-License-Identifier: Apache-2.0

package upstream

import (
	"bytes"
	"context"
	"net/http"
	"strings"

	"github.com/dagu-mcp-gateway/gateway/internal/restclient"

	"github.com/dagu-mcp-gateway/gateway/internal/mapping"
	"github.com/dagu-mcp-gateway/gateway/internal/model"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient/gen"
)

// Step status numbers the summary path looks at.
const (
	nodeNotStarted = 0
	nodeRunning    = 1
	nodeSkipped    = 5
	nodeRetrying   = 9
)

// aggregateItems lists items from the summary of a finished foreach step.
func (a *Adapter) aggregateItems(ctx context.Context, t runTarget, step string, q model.ForeachQuery) (*model.ForeachItems, error) {
	agg, err := a.aggregateOf(ctx, t, step, q.Parent != "")
	if err != nil {
		return nil, err
	}
	out := mapping.AggregateItems(agg, runURIs(t), step, q)
	return &out, nil
}

// aggregateItem finds one top-level item in the summary.
func (a *Adapter) aggregateItem(ctx context.Context, t runTarget, step, item string) (*model.ForeachItem, error) {
	agg, err := a.aggregateOf(ctx, t, step, isNestedItem(item))
	if err != nil {
		return nil, err
	}
	out, ok := mapping.AggregateItem(agg, runURIs(t), step, item)
	if !ok {
		return nil, notFound(a.client.RunRoutes(t.Ref).Details, model.FieldItem, "")
	}
	return &out, nil
}

// isNestedItem reports whether an item path addresses an item of a nested
// foreach ("1.shards.0"); top-level paths are plain indexes.
func isNestedItem(item string) bool { return strings.Contains(item, ".") }

// aggregateOf reads the summary a foreach step of an older server writes
// to its stdout once every item has finished: the run's details (reused
// when resolving "latest" read them, or cached) and one download of the
// stdout file. When the details must be read, the download is sent with
// them (see summaryAhead), so the read waits on one round trip; the
// details still decide the answer. A step that never started, was
// skipped, recorded no stdout or wrote nothing has no items. Nested items
// and a running step's items are not in the summary, so those reads are
// unsupported; nested says nested items were asked for.
func (a *Adapter) aggregateOf(ctx context.Context, t runTarget, step string, nested bool) (mapping.Aggregate, error) {
	summary := a.summaryAhead(ctx, &t, step, nested)
	defer summary.drop()
	d, err := a.runDetails(ctx, t)
	if err != nil {
		return mapping.Aggregate{}, err
	}
	route := a.client.RunRoutes(t.Ref).Details
	n := stepNode(d, step)
	switch {
	case n == nil:
		return mapping.Aggregate{}, notFound(route, model.FieldStepName, "")
	case !isForeach(n):
		return mapping.Aggregate{}, notForeachStep(route, step)
	case nested:
		return mapping.Aggregate{}, unsupported(route, model.ReasonNoNestedForeach, nil)
	case n.Status == nodeRunning || n.Status == nodeRetrying:
		return mapping.Aggregate{}, unsupported(route, model.ReasonNoLiveForeach, nil)
	case n.Status == nodeNotStarted || n.Status == nodeSkipped || n.Stdout == "":
		return mapping.Aggregate{}, nil
	}
	return summary.get()
}

// pendingSummary is the download of a foreach summary: started ahead of
// the run's details, or made only when get is called.
type pendingSummary struct {
	get  func() (mapping.Aggregate, error)
	drop func() // cancels a download started ahead and waits for it to end
}

// summaryAhead starts the summary's download at once when the run's
// details are not known yet (they cost a call), so both calls share one
// round trip. A summary that turns out not to be needed (the step is
// missing, not a foreach step, not finished) is cancelled by drop; one
// download of a step's stdout, bounded like every answer, is the cost.
// Nested items are never in the summary, so nothing is started for them.
func (a *Adapter) summaryAhead(ctx context.Context, t *runTarget, step string, nested bool) pendingSummary {
	ref := t.Ref
	later := pendingSummary{
		get:  func() (mapping.Aggregate, error) { return a.downloadAggregate(ctx, ref, step) },
		drop: func() {},
	}
	if nested || t.Fetched != nil {
		return later
	}
	if _, known := a.runs.knownDetails(ctx, t); known {
		return later
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	var agg mapping.Aggregate
	var err error
	go func() {
		defer close(done)
		agg, err = a.downloadAggregate(ctx, ref, step)
	}()
	return pendingSummary{
		get:  func() (mapping.Aggregate, error) { <-done; return agg, err },
		drop: func() { cancel(); <-done },
	}
}

// downloadAggregate reads and parses the summary; a missing or empty
// stdout file (an expansion failure writes none) has no items.
func (a *Adapter) downloadAggregate(ctx context.Context, ref restclient.RunRef, step string) (mapping.Aggregate, error) {
	raw, err := a.client.DownloadStepLog(ctx, ref, step, gen.StreamStdout, 0)
	if isHTTP(err, http.StatusNotFound) {
		return mapping.Aggregate{}, nil
	}
	if err != nil {
		return mapping.Aggregate{}, err
	}
	if len(bytes.TrimSpace(raw)) == 0 {
		return mapping.Aggregate{}, nil
	}
	agg, err := mapping.ParseForeachAggregate(raw)
	if err != nil {
		return mapping.Aggregate{}, unsupported(a.client.RunRoutes(ref).StepDownload, model.ReasonForeachSummary, err)
	}
	return agg, nil
}
