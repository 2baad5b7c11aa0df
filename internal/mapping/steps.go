// SPDX-License-Identifier: Apache-2.0

package mapping

import (
	"slices"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient/gen"
)

// Step executor types and statuses the mapping looks at.
const (
	executorForeach = "foreach"
	statusWaiting   = 7
)

// runSteps maps a run's nodes, one step each, in execution order: stably
// sorted by start time, steps that never started last, and steps that
// started at the same recorded time (or never) in Dagu's declaration order.
// Dagu records whole seconds, so steps that ran within one second keep
// their declaration order.
func runSteps(nodes []gen.Node, addr RunAddressForURIs) []model.RunStep {
	steps := make([]model.RunStep, len(nodes))
	for i := range nodes {
		steps[i] = runStep(&nodes[i], addr)
	}
	sortByStart(steps, stepStart)
	return steps
}

func runStep(n *gen.Node, addr RunAddressForURIs) model.RunStep {
	name := n.Step.Name
	executor := ""
	if n.Step.ExecutorConfig != nil {
		executor = str(n.Step.ExecutorConfig.Type)
	}
	s := model.RunStep{
		Name:        name,
		ID:          str(n.Step.Id),
		Status:      n.Status,
		StatusLabel: nodeLabel(n.Status, n.StatusLabel),
		LogURI:      model.StepLogURI(addr.RootName, addr.RootID, addr.SubRunID, name),
		Error:       str(n.Error),
		StartedAt:   Time(n.StartedAt),
		FinishedAt:  Time(n.FinishedAt),
		RetryCount:  n.RetryCount,
		Executor:    executor,
		SubRuns:     subRunLinks(n, addr),
	}
	if executor == executorForeach {
		s.ForeachURI = model.ForeachItemsURI(addr.RootName, addr.RootID, addr.SubRunID, name)
	}
	if n.Status == statusWaiting {
		s.HumanTask, s.Approval = waitingOn(&n.Step)
	}
	return s
}

// waitingOn describes what a waiting step waits for: its human task, or
// else its approval gate.
func waitingOn(step *gen.Step) (*model.HumanTask, *model.Approval) {
	if t := step.HumanTask; t != nil {
		return &model.HumanTask{Prompt: t.Prompt, Form: rawJSON(t.Form)}, nil
	}
	if a := step.Approval; a != nil {
		return nil, &model.Approval{Prompt: str(a.Prompt), Input: a.Input, Required: a.Required}
	}
	return nil, nil
}

// subRunLinks lists the sub-runs a step started, the repeated ones last and
// marked. Their URIs live under the root run, where Dagu stores sub-runs of
// every depth.
// Dagu 1.17 names the two lists children and childrenRepeated (a node
// carries one pair or the other).
func subRunLinks(n *gen.Node, addr RunAddressForURIs) []model.SubRunLink {
	lists := [...]struct {
		runs     []gen.SubDAGRun
		repeated bool
	}{{n.SubRuns, false}, {n.Children, false}, {n.SubRunsRepeated, true}, {n.ChildrenRepeated, true}}
	total := 0
	for _, l := range lists {
		total += len(l.runs)
	}
	if total == 0 {
		return nil
	}
	// Appended straight from Dagu's lists: concatenating them first would
	// copy each list once more per step read.
	links := make([]model.SubRunLink, 0, total)
	for _, l := range lists {
		for _, r := range l.runs {
			links = append(links, subRunLink(r, addr, l.repeated))
		}
	}
	return links
}

func subRunLink(r gen.SubDAGRun, addr RunAddressForURIs, repeated bool) model.SubRunLink {
	return model.SubRunLink{
		SubRunID: r.DagRunId,
		DAGName:  str(r.DagName),
		URI:      model.RunURI(addr.RootName, addr.RootID, r.DagRunId),
		Repeated: repeated,
	}
}

// handlers maps a run's lifecycle handler steps, in lifecycle order. Each
// keeps its hook name in Handler; its log is addressed by its step name.
func handlers(d *gen.DAGRunDetails, addr RunAddressForURIs) []model.RunStep {
	hooks := [...]struct {
		name string
		node *gen.Node
	}{
		{"onInit", d.OnInit}, {"onWait", d.OnWait}, {"onSuccess", d.OnSuccess},
		{"onFailure", d.OnFailure}, {"onAbort", d.OnAbort}, {"onExit", d.OnExit},
	}
	var out []model.RunStep
	for _, h := range hooks {
		if h.node == nil {
			continue
		}
		s := runStep(h.node, addr)
		s.Handler = h.name
		out = append(out, s)
	}
	return out
}

// sortByStart orders items by their start time, stably: see runSteps.
// startedAt reads an item's start time as Time formats it.
func sortByStart[T any](items []T, startedAt func(*T) string) {
	if len(items) < 2 {
		return
	}
	starts := make([]startTime, len(items))
	for i := range items {
		starts[i].at, starts[i].ok = startKey(startedAt(&items[i]))
		starts[i].pos = i
	}
	if slices.IsSortedFunc(starts, compareStart) {
		return
	}
	slices.SortStableFunc(starts, compareStart)
	sorted := make([]T, len(items))
	for i, s := range starts {
		sorted[i] = items[s.pos]
	}
	copy(items, sorted)
}

func stepStart(s *model.RunStep) string        { return s.StartedAt }
func stepLogStart(s *model.StepLogInfo) string { return s.StartedAt }

// startTime is a step's start time (ok false: never started) and its
// position in Dagu's declaration order.
type startTime struct {
	at  time.Time
	ok  bool
	pos int
}

func compareStart(a, b startTime) int {
	switch {
	case a.ok && b.ok:
		return a.at.Compare(b.at)
	case a.ok:
		return -1
	case b.ok:
		return 1
	}
	return 0
}
