// SPDX-License-Identifier: Apache-2.0

package readtool

import (
	"context"
	"fmt"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
)

// A not-found answer of a run read points at the fix: when the DAG itself
// is unknown, name is blamed with close DAG names, whatever dagRunId says
// (latest of a misspelled DAG is not "a DAG without runs"); when a step or
// sub-run is missing, the message names the run the read resolved (not
// "latest"), and close step names are suggested. All cost reads only on
// the not-found path, and they are part of answering the read (the rows
// of run reads wrap their reader in runRead), never of classifying its
// failure.

// explainRunNotFound is how a run read answers a failure of its port: a
// not-found failure it can explain becomes that explanation (an *Error);
// any other failure is returned as it is, for the classifier.
func (t *Tool) explainRunNotFound(ctx context.Context, c *call, err error) error {
	if e := t.explainNotFound(ctx, c, err); e != nil {
		return e
	}
	return err
}

// explainNotFound returns a better error for a run read's not-found
// failure, or nil to keep the classified one.
func (t *Tool) explainNotFound(ctx context.Context, c *call, err error) *Error {
	if !model.IsNotFound(err) {
		return nil
	}
	if !t.dagExists(ctx, c) {
		return t.dagNotFound(ctx, c, err)
	}
	// A failure with its own message (a step that is not a foreach step,
	// a stream without output) already says what is wrong.
	f, _ := model.AsFailure(err)
	if f == nil || f.Detail != "" || f.Reason != "" {
		return nil
	}
	switch blamed(c, f) {
	case fStepName:
		return t.stepNotFound(ctx, c, err)
	case fSubRunID:
		return t.subRunNotFound(ctx, c, err)
	}
	return nil
}

// blamed is the input a not-found failure blames: its own field, or the
// target's most specific identifier when the upstream did not say.
func blamed(c *call, f *model.Failure) string {
	if f.Field != "" {
		return f.Field
	}
	return defaultNotFoundField(c)
}

// dagExists reports whether the DAG a run read names exists: a DAG file of
// that name, a DAG Dagu finds by that name (one in an alternative
// directory), or a DAG with runs. Anything the gateway cannot tell counts
// as existing, so the original answer stands.
func (t *Tool) dagExists(ctx context.Context, c *call) bool {
	name := c.in.get(fName)
	if !validDAGFileName(name) {
		return false
	}
	names, err := t.up.DAGNames(ctx)
	if err != nil || contains(names, name) {
		return true
	}
	if _, err := t.up.GetDAG(ctx, name); err == nil || !isNotFound(err) {
		return true
	}
	if c.in.get(fDAGRunID) == model.LatestRun {
		return false // the read just found no latest run
	}
	_, err = t.up.GetRun(ctx, model.RunAddress{Name: name, DAGRunID: model.LatestRun})
	return err == nil || !isNotFound(err)
}

// stepNotFound is the not-found error of a missing step: it names the
// resolved run and, when the run has steps with close names, suggests up to
// three of them in details.didYouMean. Without the run's details the
// original answer stands (nil).
func (t *Tool) stepNotFound(ctx context.Context, c *call, cause error) *Error {
	addr := model.RunAddress{Name: c.in.get(fName), DAGRunID: c.in.get(fDAGRunID), SubRunID: c.in.get(fSubRunID)}
	run, err := t.up.GetRun(ctx, addr)
	if err != nil {
		return nil
	}
	rootID := run.DAGRunID
	if addr.SubRunID != "" {
		// A sub-run's details carry its own ID: the root's comes from the
		// request, or from the root's details when it said latest.
		if rootID, err = t.rootRunID(ctx, addr); err != nil {
			return nil
		}
	}
	step := c.in.get(fStepName)
	where := fmt.Sprintf("DAG-run %q of DAG %q", rootID, addr.Name)
	if addr.SubRunID != "" {
		where = fmt.Sprintf("sub DAG-run %q under %s", addr.SubRunID, where)
	}
	e := newError(CodeResourceNotFound, fmt.Sprintf("Step %q was not found in %s.", step, where)).withField(fStepName).withCause(cause)
	names := make([]string, 0, len(run.Steps))
	for _, s := range run.Steps {
		names = append(names, s.Name)
	}
	if close := suggest(step, names, maxSuggestions); len(close) > 0 {
		e.Message = fmt.Sprintf("Step %q was not found in %s. Did you mean %s?", step, where, quoteList(close))
		e.Details = map[string]any{"didYouMean": close}
	}
	return e
}

// subRunNotFound is the not-found error of a missing sub-run under a root
// addressed as latest: it names the root run latest resolved to. Without
// the root's details, or for a concrete root ID, the original answer
// stands (nil).
func (t *Tool) subRunNotFound(ctx context.Context, c *call, cause error) *Error {
	addr := model.RunAddress{Name: c.in.get(fName), DAGRunID: c.in.get(fDAGRunID), SubRunID: c.in.get(fSubRunID)}
	if addr.DAGRunID != model.LatestRun {
		return nil
	}
	rootID, err := t.rootRunID(ctx, addr)
	if err != nil {
		return nil
	}
	return newError(CodeResourceNotFound, subRunNotFoundMessage(addr.SubRunID, rootID, addr.Name)).
		withField(fSubRunID).withCause(cause)
}

// rootRunID is the ID of the root run addr names: the one it gives, or the
// one latest resolves to now (one read of the root's details).
func (t *Tool) rootRunID(ctx context.Context, addr model.RunAddress) (string, error) {
	if addr.DAGRunID != model.LatestRun {
		return addr.DAGRunID, nil
	}
	root, err := t.up.GetRun(ctx, model.RunAddress{Name: addr.Name, DAGRunID: model.LatestRun})
	if err != nil {
		return "", err
	}
	return root.DAGRunID, nil
}
