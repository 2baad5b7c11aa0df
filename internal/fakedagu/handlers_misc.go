// SPDX-License-Identifier: Apache-2.0

package fakedagu

import (
	"fmt"
	"net/http"
	"sort"
	"time"
)

const (
	defaultEventLimit = 50
	maxEventLimit     = 500
)

// handleHealth serves GET /health (no credentials needed). The uptime
// continues from the recorded one.
func (s *Server) handleHealth(c *call) {
	body := withoutKeys(s.data.health)
	now := s.opts.Now()
	body["timestamp"] = formatSeconds(now)
	body["uptime"] = getInt(s.data.health, "uptime") + int(now.Sub(s.started)/time.Second)
	c.ok(body)
}

// handleAuthMe serves GET /auth/me: the recorded key's user with the
// configured role.
func (s *Server) handleAuthMe(c *call) {
	body := mustObj(deepCopy(s.data.authMe), "auth/me")
	getObj(body, "user")["role"] = s.opts.Role
	c.ok(body)
}

// handleOpenAPI serves GET /openapi.json: a document listing only the
// routes this server has.
func (s *Server) handleOpenAPI(c *call) {
	paths := obj{}
	for _, rt := range s.router.routes {
		paths[rt.template] = obj{"get": obj{}}
	}
	c.ok(obj{"openapi": openAPIVersion, "info": obj{"version": apiDocVersion}, "paths": paths})
}

// The version fields of the recorded OpenAPI document (001).
const (
	openAPIVersion = "3.0.0"
	apiDocVersion  = "1.0.0"
)

// eventQuery is the parsed query of GET /event-logs.
type eventQuery struct {
	filters       map[string]string // entry field -> required value
	limit, offset int
	cursorMode    bool
	cursor        string
}

func (c *call) eventQuery() (eventQuery, bool) {
	q := eventQuery{filters: map[string]string{}}
	for _, name := range []string{"kind", "type", "dagName", "dagRunId", "attemptId", "sessionId", "userId", "model"} {
		v, ok := c.stringParam(name)
		if !ok {
			return q, false
		}
		if v != "" {
			q.filters[name] = v
		}
	}
	limit, hasLimit, ok := c.intParam("limit")
	if !ok {
		return q, false
	}
	q.limit = defaultEventLimit
	if hasLimit && limit > 0 {
		q.limit = min(limit, maxEventLimit)
	}
	if q.offset, _, ok = c.intParam("offset"); !ok {
		return q, false
	}
	mode, ok := c.stringParam("paginationMode")
	q.cursorMode = mode == "cursor"
	if ok {
		q.cursor, ok = c.stringParam("cursor")
	}
	return q, ok
}

// eventCursor continues a cursor-mode event list.
type eventCursor struct {
	Offset int `json:"offset"`
}

// handleEventLogs serves GET /event-logs (manager and admin only): one
// dag_run event per run with the run's latest status and attempt ID.
func (s *Server) handleEventLogs(c *call) {
	if !s.canReadEventLogs() {
		c.fail(http.StatusForbidden, codeForbidden, "Insufficient permissions")
		return
	}
	q, ok := c.eventQuery()
	if !ok {
		return
	}
	offset := max(q.offset, 0)
	if q.cursorMode && q.cursor != "" {
		var cur eventCursor
		if decodeCursor(q.cursor, &cur) != nil || cur.Offset < 0 {
			c.badRequest("invalid event log cursor")
			return
		}
		offset = cur.Offset
	}
	var matched []obj
	for _, e := range s.eventEntries() {
		if eventMatches(e, q.filters) {
			matched = append(matched, e)
		}
	}
	start := min(offset, len(matched))
	end := min(start+q.limit, len(matched))
	entries := arr{}
	for _, e := range matched[start:end] {
		entries = append(entries, e)
	}
	body := obj{"entries": entries}
	switch {
	case !q.cursorMode:
		body["total"] = len(matched)
	case end < len(matched):
		body["nextCursor"] = encodeCursor(eventCursor{Offset: end})
	}
	c.ok(body)
}

func eventMatches(e obj, filters map[string]string) bool {
	for k, v := range filters {
		if getStr(e, k) != v {
			return false
		}
	}
	return true
}

// eventEntries builds the event log of every visible run and sub-run,
// newest first.
func (s *Server) eventEntries() []obj {
	var out []obj
	for _, r := range s.data.runs {
		if !s.visibleRun(r) {
			continue
		}
		out = append(out, runEvent(r))
		for _, sub := range r.subRuns {
			out = append(out, runEvent(sub))
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return getStr(out[i], "occurredAt") > getStr(out[j], "occurredAt") })
	return out
}

// runEvent is the EventLogEntry of a run's latest status change.
func runEvent(r *runRecord) obj {
	at := getStr(r.details, "finishedAt")
	if at == "" {
		at = getStr(r.details, "startedAt")
	}
	label := getStr(r.details, "statusLabel")
	digest := derivedHex("event:"+r.id+":"+label, 32)
	return obj{
		"id":             fmt.Sprintf("%s-%s-%s-%s-%s", digest[:8], digest[8:12], digest[12:16], digest[16:20], digest[20:]),
		"schemaVersion":  1,
		"occurredAt":     at,
		"recordedAt":     at,
		"kind":           "dag_run",
		"type":           "dag.run." + label,
		"sourceService":  "scheduler",
		"sourceInstance": "local",
		"dagName":        r.name,
		"dagRunId":       r.id,
		"attemptId":      r.attemptID,
		"status":         label,
		"data": obj{"dag_run_status": obj{
			"name": r.name, "dag_run_id": r.id, "attempt_id": r.attemptID, "status": r.status,
		}},
	}
}
