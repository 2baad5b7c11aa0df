// SPDX-License-Identifier: Apache-2.0

package fakedagu

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strings"
	"time"
)

const (
	defaultRunLimit = 100
	maxRunLimit     = 500
	latestRunID     = "latest"
)

// onlyToDateFrom is where the window starts when only toDate is given.
var onlyToDateFrom = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

// runListQuery is the parsed query of GET /dag-runs and /dag-runs/{name}.
type runListQuery struct {
	cursorVersion             int // "v" of this release's cursors (034: 3)
	name, dagRunID, exactName string
	workspace                 string
	statuses                  []int
	from, to                  time.Time // zero: unbounded
	labels                    []string
	limit                     int
	cursor                    string
}

func (s *Server) runListQuery(c *call, exactName string) (runListQuery, bool) {
	d := s.dialect
	q := runListQuery{exactName: exactName, workspace: workspaceAll, limit: unlimitedRuns, cursorVersion: d.runCursorVersion}
	var ok bool
	if q.statuses, ok = c.statusParam(d.runStatusArray); !ok {
		return q, false
	}
	from, hasFrom, ok := c.int64Param("fromDate")
	if !ok {
		return q, false
	}
	to, hasTo, ok := c.int64Param("toDate")
	if !ok {
		return q, false
	}
	if d.runPaging && !c.limitParam(&q) {
		return q, false
	}
	q.from, q.to = s.runWindow(from, hasFrom, to, hasTo)
	return q, c.runFilters(d, &q)
}

// runFilters binds the string filters of a run list the release knows.
func (c *call) runFilters(d *dialect, q *runListQuery) bool {
	var ok bool
	if q.name, ok = c.stringParam("name"); !ok {
		return false
	}
	if q.dagRunID, ok = c.stringParam("dagRunId"); !ok {
		return false
	}
	if d.runPaging {
		if q.cursor, ok = c.stringParam("cursor"); !ok {
			return false
		}
	}
	if d.runWorkspace {
		if q.workspace, ok = c.workspaceParam(); !ok {
			return false
		}
	}
	q.labels, ok = c.labelFilter(d.runLabels)
	return ok
}

// unlimitedRuns is the page size of releases that ignore limit: they
// answer every matching run.
const unlimitedRuns = int(^uint(0) >> 1)

// limitParam binds limit on releases that page run lists.
func (c *call) limitParam(q *runListQuery) bool {
	limit, hasLimit, ok := c.intParam("limit")
	if !ok {
		return false
	}
	q.limit = defaultRunLimit
	if hasLimit {
		q.limit = min(max(limit, 1), maxRunLimit)
	}
	return true
}

// statusParam binds the status filter: repeated values on releases that
// take an array, else one value (a repeated one is the router's 400).
func (c *call) statusParam(array bool) ([]int, bool) {
	if array {
		return c.intListParam("status")
	}
	status, present, ok := c.intParam("status")
	if !ok || !present {
		return nil, ok
	}
	return []int{status}, true
}

// runWindow resolves the time window: without fromDate and toDate only
// today's runs are listed (from the start of today in UTC); with only toDate
// the window opens in 2000.
func (s *Server) runWindow(from int64, hasFrom bool, to int64, hasTo bool) (time.Time, time.Time) {
	var start, end time.Time
	switch {
	case hasFrom:
		start = time.Unix(from, 0).UTC()
	case hasTo:
		start = onlyToDateFrom
	default:
		now := s.opts.Now().UTC()
		start = time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	}
	if hasTo {
		end = time.Unix(to, 0).UTC()
	}
	return start, end
}

// matches applies the filters to a run.
func (q runListQuery) matches(r *runRecord) bool {
	switch {
	case !workspaceHoldsDefault(q.workspace):
		return false
	case q.exactName != "" && r.name != q.exactName:
		return false
	case q.name != "" && !strings.Contains(strings.ToLower(r.name), strings.ToLower(q.name)):
		return false
	case q.dagRunID != "" && !strings.Contains(r.id, q.dagRunID):
		return false
	case len(q.statuses) > 0 && !slices.Contains(q.statuses, r.status):
		return false
	case !q.from.IsZero() && r.ts.Before(q.from):
		return false
	case !q.to.IsZero() && r.ts.After(q.to):
		return false
	}
	return hasAllLabels(r.labels, q.labels)
}

// filterHash fingerprints every filter, the implicit window included, so
// that a cursor only continues the list it came from.
func (q runListQuery) filterHash() string {
	statuses := slices.Clone(q.statuses)
	sort.Ints(statuses)
	labels := slices.Clone(q.labels)
	sort.Strings(labels)
	doc := struct {
		DAGRunID  string   `json:"dag_run_id,omitempty"`
		Name      string   `json:"name,omitempty"`
		ExactName string   `json:"exact_name,omitempty"`
		From      string   `json:"from,omitempty"`
		To        string   `json:"to,omitempty"`
		Statuses  []int    `json:"statuses,omitempty"`
		Labels    []string `json:"labels,omitempty"`
	}{DAGRunID: q.dagRunID, Name: q.name, ExactName: q.exactName, Statuses: statuses, Labels: labels}
	if !q.from.IsZero() {
		doc.From = q.from.Format(time.RFC3339Nano)
	}
	if !q.to.IsZero() {
		doc.To = q.to.Format(time.RFC3339Nano)
	}
	raw, _ := json.Marshal(doc)
	sum := sha256.Sum256(raw)
	return hex.EncodeToString(sum[:])
}

// runCursor continues a run list after the run it names.
type runCursor struct {
	V  int    `json:"v"`
	F  string `json:"f"`
	TS string `json:"ts"`
	N  string `json:"n"`
	R  string `json:"r"`
}

// afterCursor decodes a run list cursor into the position it continues.
func (q runListQuery) afterCursor() (*runRecord, error) {
	if q.cursor == "" {
		return nil, nil
	}
	var cur runCursor
	if err := decodeCursor(q.cursor, &cur); err != nil {
		return nil, fmt.Errorf("decode cursor")
	}
	switch {
	case cur.V != q.cursorVersion:
		return nil, fmt.Errorf("unsupported cursor version")
	case cur.F == "" || cur.TS == "" || cur.N == "" || cur.R == "":
		return nil, fmt.Errorf("cursor is incomplete")
	case cur.F != q.filterHash():
		return nil, fmt.Errorf("cursor does not match the current filters")
	}
	ts, err := time.Parse(time.RFC3339Nano, cur.TS)
	if err != nil {
		return nil, fmt.Errorf("invalid cursor timestamp")
	}
	return &runRecord{name: cur.N, id: cur.R, ts: ts}, nil
}

func (q runListQuery) cursorAfter(r *runRecord) string {
	return encodeCursor(runCursor{V: q.cursorVersion, F: q.filterHash(), TS: r.ts.UTC().Format(time.RFC3339Nano), N: r.name, R: r.id})
}

// handleRuns serves GET /dag-runs.
func (s *Server) handleRuns(c *call) { s.listRuns(c, "") }

// handleRunsOfDAG serves GET /dag-runs/{name}.
func (s *Server) handleRunsOfDAG(c *call) { s.listRuns(c, c.params["name"]) }

func (s *Server) listRuns(c *call, exactName string) {
	q, ok := s.runListQuery(c, exactName)
	if !ok {
		return
	}
	after, err := q.afterCursor()
	if err != nil {
		c.badRequest("dagrun: invalid query cursor: " + err.Error())
		return
	}
	page := arr{}
	var last *runRecord
	more := false
	for _, r := range s.data.runsAfter(after) {
		if !s.visibleRun(r) || !q.matches(r) {
			continue
		}
		if len(page) == q.limit {
			more = true
			break
		}
		page = append(page, r.summary)
		last = r
	}
	body := obj{"dagRuns": page}
	if len(page) == 0 && s.dialect.emptyRunsNull {
		body["dagRuns"] = nil
	}
	if more {
		body["nextCursor"] = q.cursorAfter(last)
	}
	c.ok(body)
}

// runOrLatest resolves /dag-runs/{name}/{dagRunId}, where "latest" means
// the newest run; it answers 404 and returns nil when there is none.
func (s *Server) runOrLatest(c *call) *runRecord {
	name, id := c.params["name"], c.params["dagRunId"]
	if id == latestRunID && s.dialect.latestAlias {
		r := s.data.latestRun(name, s.visibleRun)
		if r == nil {
			c.notFound("no dag-runs found for DAG " + name)
		}
		return r
	}
	return s.runByID(c)
}

// runByID resolves a plain run ID (no "latest").
func (s *Server) runByID(c *call) *runRecord {
	name, id := c.params["name"], c.params["dagRunId"]
	r := s.rootRun(name, id)
	if r == nil {
		c.notFound(fmt.Sprintf("dag-run ID %s not found for DAG %s", id, name))
	}
	return r
}

// subRunByID resolves /dag-runs/{name}/{dagRunId}/sub-dag-runs/{subDAGRunId}
// (/children/ on 1.17).
func (s *Server) subRunByID(c *call) *runRecord {
	name, sid := c.params["name"], c.params["subDAGRunId"]
	var root *runRecord
	if s.dialect.childLookup {
		root = s.rootRun(name, c.params["dagRunId"])
	} else if root = s.runByID(c); root == nil {
		return nil
	}
	var sub *runRecord
	if root != nil {
		sub = root.subRun(sid)
	}
	if sub == nil {
		c.notFound(fmt.Sprintf("%s ID %s not found for DAG %s", s.dialect.subRunNoun, sid, name))
	}
	return sub
}

// handleRun serves GET /dag-runs/{name}/{dagRunId}.
func (s *Server) handleRun(c *call) {
	if r := s.runOrLatest(c); r != nil {
		c.ok(obj{"dagRunDetails": r.details})
	}
}

// handleRunSpec serves GET /dag-runs/{name}/{dagRunId}/spec.
func (s *Server) handleRunSpec(c *call) {
	if r := s.runOrLatest(c); r != nil {
		c.ok(obj{"spec": r.spec})
	}
}

// handleSubRuns serves GET /dag-runs/{name}/{dagRunId}/sub-dag-runs.
func (s *Server) handleSubRuns(c *call) {
	parent, ok := c.stringParam("parentSubDAGRunId")
	if !ok {
		return
	}
	root := s.runByID(c)
	if root == nil {
		return
	}
	if parent == "" {
		parent = root.id
	}
	subs := arr{}
	for _, sub := range root.subRuns {
		if getStr(sub.details, "parentDAGRunId") == parent {
			e := subRunListEntry(root, sub)
			if !s.dialect.subRunDAGName {
				delete(e, "dagName")
			}
			subs = append(subs, e)
		}
	}
	c.ok(obj{"subRuns": subs})
}

// handleSubRun serves GET .../sub-dag-runs/{subDAGRunId}.
func (s *Server) handleSubRun(c *call) {
	if sub := s.subRunByID(c); sub != nil {
		c.ok(obj{"dagRunDetails": sub.details})
	}
}

// handleSubRunSpec serves GET .../sub-dag-runs/{subDAGRunId}/spec.
func (s *Server) handleSubRunSpec(c *call) {
	if sub := s.subRunByID(c); sub != nil {
		c.ok(obj{"spec": sub.spec})
	}
}

// writeDownload answers a log download: the raw file as text.
func writeDownload(c *call, f *logFile, fileName string) {
	c.w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	c.w.Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", fileName))
	c.w.WriteHeader(http.StatusOK)
	_ = writeRaw(c.w, f.text)
}
