// SPDX-License-Identifier: Apache-2.0

package fakedagu

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// Foreach routes of newer Dagu servers (mapping §8), served in
// ForeachRoutes mode only.

const (
	defaultForeachPerPage = 50
	maxForeachPerPage     = 500
)

// nodeStatusLabels are the labels of Dagu's node status numbers.
var nodeStatusLabels = []string{
	"not_started", "running", "failed", "aborted", "succeeded",
	"skipped", "partially_succeeded", "waiting", "rejected", "retrying",
}

func nodeStatusLabel(status int) string {
	if status < 0 || status >= len(nodeStatusLabels) {
		return "unknown"
	}
	return nodeStatusLabels[status]
}

// foreachItemPathPattern accepts "2" and nested paths such as "2.shards.0".
var foreachItemPathPattern = regexp.MustCompile(`^[0-9]+(\.[^/]+\.[0-9]+)*$`)

// foreachStatusFilters are the values the status query accepts.
var foreachStatusFilters = map[string]bool{"not_started": true, "running": true, "succeeded": true, "failed": true, "aborted": true}

// foreachTarget is the foreach step a request addresses.
type foreachTarget struct {
	run    *runRecord
	step   string
	record *foreachRecord // nil while the step has not started
}

// resolveForeach finds the run and the foreach step; it answers 404 and
// returns false when either is missing.
func (s *Server) resolveForeach(c *call, lookup func(*call) *runRecord) (foreachTarget, bool) {
	r := lookup(c)
	if r == nil {
		return foreachTarget{}, false
	}
	step := c.params["stepName"]
	node, ok := r.nodes[step]
	if !ok {
		c.notFound(fmt.Sprintf("step %s not found in DAG %s", step, r.name))
		return foreachTarget{}, false
	}
	if !isForeachNode(node) {
		c.notFound(fmt.Sprintf("step %s in DAG %s is not a foreach step", step, r.name))
		return foreachTarget{}, false
	}
	return foreachTarget{run: r, step: step, record: r.foreach[stepName(node)]}, true
}

// item finds an item by path; it answers and returns nil when it cannot.
func (t foreachTarget) item(c *call, path string) *foreachItem {
	if !foreachItemPathPattern.MatchString(path) {
		c.badRequest("invalid foreach item path: " + path)
		return nil
	}
	if t.record != nil {
		if it := t.record.byPath[path]; it != nil {
			return it
		}
	}
	c.notFound(fmt.Sprintf("item %s of step %s has no record", path, t.step))
	return nil
}

// level returns the items a parent value lists ("" for the top level).
func (t foreachTarget) level(c *call, parent string) ([]*foreachItem, bool) {
	if parent == "" {
		if t.record == nil {
			return nil, true
		}
		return t.record.items, true
	}
	if t.record != nil {
		if items, ok := t.record.byParent[parent]; ok {
			return items, true
		}
	}
	c.notFound(fmt.Sprintf("item %s of step %s has no record", parentItemPath(parent), t.step))
	return nil, false
}

// parentItemPath is the item part of a foreachParent value ("1.shards" ->
// "1"), used to name the missing record.
func parentItemPath(parent string) string {
	if i := strings.LastIndexByte(parent, '.'); i > 0 {
		return parent[:i]
	}
	return parent
}

// handleForeachItems serves the ForeachItemList routes.
func (s *Server) handleForeachItems(c *call)    { s.foreachItems(c, s.runByID) }
func (s *Server) handleSubForeachItems(c *call) { s.foreachItems(c, s.subRunByID) }

func (s *Server) foreachItems(c *call, lookup func(*call) *runRecord) {
	q, ok := c.foreachListQuery()
	if !ok {
		return
	}
	t, ok := s.resolveForeach(c, lookup)
	if !ok {
		return
	}
	items, ok := t.level(c, q.parent)
	if !ok {
		return
	}
	counts := obj{"notStarted": 0, "running": 0, "succeeded": 0, "failed": 0, "aborted": 0}
	var shown []*foreachItem
	for _, it := range items {
		bucket := foreachBucket(it.status)
		counts[countKey(bucket)] = counts[countKey(bucket)].(int) + 1
		if q.status == "" || q.status == bucket {
			shown = append(shown, it)
		}
	}
	sortForeachItems(shown)
	start := min((q.page-1)*q.perPage, len(shown))
	end := min(start+q.perPage, len(shown))
	out := arr{}
	for _, it := range shown[start:end] {
		out = append(out, it.summary())
	}
	c.ok(obj{"total": len(items), "counts": counts, "items": out})
}

// countKey is the ForeachItemList counts field of a status bucket.
func countKey(bucket string) string {
	if bucket == "not_started" {
		return "notStarted"
	}
	return bucket
}

// sortForeachItems orders failed and aborted items first, then running
// ones, then the rest, by index inside each group.
func sortForeachItems(items []*foreachItem) {
	sort.SliceStable(items, func(i, j int) bool {
		gi, gj := foreachSortGroup(items[i].status), foreachSortGroup(items[j].status)
		if gi != gj {
			return gi < gj
		}
		return items[i].index < items[j].index
	})
}

// foreachListQuery is the parsed query of a ForeachItemList route.
type foreachListQuery struct {
	parent, status string
	page, perPage  int
}

func (c *call) foreachListQuery() (foreachListQuery, bool) {
	var q foreachListQuery
	var ok bool
	if q.parent, ok = c.stringParam("parent"); !ok {
		return q, false
	}
	if q.status, ok = c.stringParam("status"); !ok {
		return q, false
	}
	if q.status != "" && !foreachStatusFilters[q.status] {
		c.badRequest("invalid status filter: " + q.status)
		return q, false
	}
	if q.page, q.perPage, ok = c.pageParams(defaultForeachPerPage, maxForeachPerPage); !ok {
		return q, false
	}
	return q, true
}

// handleForeachItem serves the ForeachItem routes.
func (s *Server) handleForeachItem(c *call)    { s.foreachItem(c, s.runByID) }
func (s *Server) handleSubForeachItem(c *call) { s.foreachItem(c, s.subRunByID) }

func (s *Server) foreachItem(c *call, lookup func(*call) *runRecord) {
	t, ok := s.resolveForeach(c, lookup)
	if !ok {
		return
	}
	it := t.item(c, c.params["item"])
	if it == nil {
		return
	}
	body := it.summary()
	steps := arr{}
	for _, bs := range it.steps {
		steps = append(steps, bs.body())
	}
	body["steps"] = steps
	c.ok(body)
}

// handleForeachBodyLog serves the body-step log routes.
func (s *Server) handleForeachBodyLog(c *call)    { s.foreachBodyLog(c, s.runByID) }
func (s *Server) handleSubForeachBodyLog(c *call) { s.foreachBodyLog(c, s.subRunByID) }

func (s *Server) foreachBodyLog(c *call, lookup func(*call) *runRecord) {
	stream, ok := c.stringParam("stream")
	if !ok {
		return
	}
	req, ok := c.windowParams()
	if !ok {
		return
	}
	t, ok := s.resolveForeach(c, lookup)
	if !ok {
		return
	}
	it := t.item(c, c.params["item"])
	if it == nil {
		return
	}
	name := c.params["bodyStepName"]
	bs := it.bodyStep(name)
	if bs == nil {
		c.notFound(fmt.Sprintf("body step %s not found in item %s of step %s", name, it.path, t.step))
		return
	}
	file := bs.stdout
	if stream == streamStderr {
		file = bs.stderr
	}
	if file == nil {
		c.notFound(fmt.Sprintf("log file not found for body step %s of item %s", name, it.path))
		return
	}
	c.ok(file.logBody(req))
}

// bodyStep finds a body step by name, or by ID when no name matches.
func (it *foreachItem) bodyStep(name string) *bodyStep {
	for _, bs := range it.steps {
		if bs.name == name {
			return bs
		}
	}
	for _, bs := range it.steps {
		if bs.id == name {
			return bs
		}
	}
	return nil
}

// summary renders an item in the ForeachItemSummary shape.
func (it *foreachItem) summary() obj {
	b := obj{"item": it.path, "index": it.index, "key": it.key, "status": it.status, "statusLabel": nodeStatusLabel(it.status)}
	addIfSet(b, "error", it.err)
	addIfSet(b, "startedAt", it.startedAt)
	addIfSet(b, "finishedAt", it.finishedAt)
	return b
}

// body renders a body step in the ForeachBodyStep shape.
func (bs *bodyStep) body() obj {
	b := obj{
		"name": bs.name, "status": bs.status, "statusLabel": nodeStatusLabel(bs.status),
		"hasStdout": bs.stdout != nil, "hasStderr": bs.stderr != nil,
	}
	addIfSet(b, "id", bs.id)
	addIfSet(b, "error", bs.err)
	addIfSet(b, "startedAt", bs.startedAt)
	addIfSet(b, "finishedAt", bs.finishedAt)
	addIfSet(b, "foreachParent", bs.foreachParent)
	if bs.retryCount > 0 {
		b["retryCount"] = bs.retryCount
	}
	return b
}

func addIfSet(b obj, key, value string) {
	if value != "" {
		b[key] = value
	}
}
