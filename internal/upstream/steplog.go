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

// getStepLog reads a window of a step's stdout and stderr, or of one of
// them: one call per stream (both run concurrently), plus one to resolve a
// "latest" root. The stream is always sent. Without a window the last
// StepLogTail lines are read; a lone limit reads from line 1, as Dagu does.
// A body step of a foreach item (Item and BodyStepName) needs the foreach
// routes; without them the run and step are still looked up (see
// unsupportedStepRead). Windows of a final run come from the run cache (runCache).
//
// 404s are told apart by one follow-up read, never by Dagu's message: the
// run's details (the run, or the step, is missing) or, for a body step, the
// foreach item (the item, or the body step, is missing). When the step is
// there, its stream file is missing: an explicitly requested stream is
// not found, one missing stream of two reads as empty, and two missing
// streams mean the step has no output yet.
func (a *Adapter) getStepLog(ctx context.Context, addr model.StepAddress, q model.LogQuery) (*model.StepLog, error) {
	step := stepRef(addr)
	route := a.client.StepLogRoute(step)
	streams, err := logStreams(route, q.Stream)
	if err != nil {
		return nil, err
	}
	if step.IsBody() && !a.foreachRoutesMaybe() {
		return nil, a.unsupportedStepRead(ctx, addr, route, model.ReasonNoBodyStepLogs)
	}
	t, err := a.resolveRun(ctx, addr.RunAddress)
	if err != nil {
		return nil, err
	}
	step.Run = t.Ref
	w, defaulted := a.stepLogWindow(q)
	t, reads := a.runs.stepLog(ctx, t, step, streams, w)
	if defaulted {
		for i := range reads {
			reads[i].Log = mapping.KeepTail(reads[i].Log, a.opts.LogBudget)
		}
	}
	missing, err := a.checkReads(reads, step.IsBody(), route)
	if err != nil {
		return nil, err
	}
	if missing != nil {
		if err := a.locateStep(ctx, t, addr, missing); err != nil {
			return nil, err
		}
		out, err := streamGaps(route, addr, reads)
		if out != nil {
			out.DAGRunID = t.Ref.RunID
		}
		return out, err
	}
	out := mapping.StepLog(logOf(reads, gen.StreamStdout), logOf(reads, gen.StreamStderr))
	out.DAGRunID = t.Ref.RunID
	out.Final = finalRead(t)
	return &out, nil
}

// finalRead reports whether the read knows the run t names to be final
// (its details came with the read or from the run cache); a read that
// does not know is not final.
func finalRead(t runTarget) bool {
	d := t.Root
	if t.Ref.IsSub() {
		d = t.Fetched
	}
	return d != nil && finalTarget(t, d)
}

// stepRef is the REST address of the step addr names, with its root run
// ID as addressed (resolved later).
func stepRef(addr model.StepAddress) restclient.StepRef {
	return restclient.StepRef{
		Run:  restclient.RunRef{Name: addr.Name, RunID: addr.DAGRunID, SubRunID: addr.SubRunID},
		Step: addr.StepName, Item: addr.Item, BodyStep: addr.BodyStepName,
	}
}

// logStreams lists the streams to read: both for "", else the one named.
func logStreams(route, stream string) ([]gen.LogStream, error) {
	switch gen.LogStream(stream) {
	case "":
		return []gen.LogStream{gen.StreamStdout, gen.StreamStderr}, nil
	case gen.StreamStdout, gen.StreamStderr:
		return []gen.LogStream{gen.LogStream(stream)}, nil
	}
	return nil, invalidInput(route, model.ParamStream, model.ReasonBadStream)
}

// stepLogWindow is the caller's window, or the last StepLogTail lines;
// defaulted says the gateway chose it.
func (a *Adapter) stepLogWindow(q model.LogQuery) (w restclient.LogWindow, defaulted bool) {
	w = restclient.LogWindow{Tail: q.Tail, Head: q.Head, Offset: q.Offset, Limit: q.Limit}
	if w == (restclient.LogWindow{}) {
		return restclient.LogWindow{Tail: a.opts.StepLogTail}, true
	}
	return w, false
}

// checkReads returns the first failure that is not a handler's 404 (or
// 1.x's answer for a file it cannot read, see unreadableLogFile), or else
// the first such answer (nil when every read succeeded). A router-level
// 404 on a body-step route means the server lacks the foreach routes, and
// a 400 there concerns the item path.
func (a *Adapter) checkReads(reads []streamRead, body bool, route string) (missing, err error) {
	for _, r := range reads {
		switch {
		case r.Err == nil:
		case body && restclient.IsRouteMissing(r.Err):
			a.redetectSoon()
			return nil, unsupported(route, model.ReasonNoBodyStepLogs, r.Err)
		case body && isHTTP(r.Err, http.StatusBadRequest):
			return nil, withField(r.Err, model.FieldItem) // the item path is the one value Dagu parses
		case isHTTP(r.Err, http.StatusNotFound):
			if missing == nil {
				missing = r.Err
			}
		case a.unreadableLogFile(r.Err):
			if missing == nil {
				missing = &model.Failure{Kind: model.FailureNotFound, Cause: r.Err}
			}
		default:
			return nil, r.Err
		}
	}
	return missing, nil
}

// unreadableLogFile reports a log answer of Dagu 1.x (the /api/v2
// releases) for a scheduler or stream file its handler could not read.
// Those handlers answer a missing run or step with 404 but return any
// failure to read the file, a missing file included, as their error, which
// Dagu answers with 500; 2.0 and later answer a missing file with 404. So
// on 1.x a 500 of a log read is taken for the missing file it almost
// always is, once the run's details show the run and step (see locateStep
// and readRunLogs), and is answered as a missing file is on later
// releases: an empty stream next to one that reads, not found, an empty
// scheduler log or a stream run_logs marks absent. The rare unreadable
// file that does exist is answered the same way; 1.x gives nothing to
// tell it apart by. The fact is restclient's handlerFailures table, the
// one the outage tracker reads too.
func (a *Adapter) unreadableLogFile(err error) bool {
	return restclient.IsHandlerFailure(a.capsOrCurrent().APIBase, err)
}

// locateStep makes the one follow-up read after a 404 and returns the
// error that names what is missing, or nil when the step (or body step)
// exists and only stream files are missing.
func (a *Adapter) locateStep(ctx context.Context, t runTarget, addr model.StepAddress, missing error) error {
	if addr.Item == "" && addr.BodyStepName == "" {
		d, err := a.runDetails(ctx, t)
		if err != nil {
			return err
		}
		if stepNode(d, addr.StepName) == nil {
			return withField(missing, model.FieldStepName)
		}
		return nil
	}
	it, err := a.client.GetForeachItem(ctx, t.Ref, addr.StepName, addr.Item)
	switch {
	case isHTTP(err, http.StatusNotFound) && !restclient.IsRouteMissing(err):
		return a.missingForeach(ctx, t, addr.StepName, err, model.FieldItem)
	case isHTTP(err, http.StatusBadRequest):
		return withField(err, model.FieldItem)
	case err != nil:
		return err
	case !hasBodyStep(it, addr.BodyStepName):
		return withField(missing, model.FieldBodyStepName)
	}
	return nil
}

// hasBodyStep reports whether the item has the body step, found by name
// or, as Dagu also does, by ID.
func hasBodyStep(it *gen.ForeachItem, name string) bool {
	for _, s := range it.Steps {
		if s.Name == name || (s.Id != nil && *s.Id == name) {
			return true
		}
	}
	return false
}

// streamGaps answers a read of an existing step some of whose stream files
// are missing.
func streamGaps(route string, addr model.StepAddress, reads []streamRead) (*model.StepLog, error) {
	field := model.FieldStepName
	if addr.BodyStepName != "" {
		field = model.FieldBodyStepName
	}
	if len(reads) == 1 {
		return nil, notFound(route, model.ParamStream, model.ReasonNoStreamLog,
			addr.StepName, addr.Item, addr.BodyStepName, string(reads[0].Stream))
	}
	found := 0
	for i := range reads {
		if reads[i].Err == nil {
			found++
			continue
		}
		reads[i].Log = &gen.Log{}
	}
	if found == 0 {
		return nil, notFound(route, field, model.ReasonNoLogOutput, addr.StepName, addr.Item, addr.BodyStepName)
	}
	out := mapping.StepLog(logOf(reads, gen.StreamStdout), logOf(reads, gen.StreamStderr))
	return &out, nil
}

// logOf returns the log read for a stream, or nil when it was not read.
func logOf(reads []streamRead, stream gen.LogStream) *gen.Log {
	for _, r := range reads {
		if r.Stream == stream {
			return r.Log
		}
	}
	return nil
}
