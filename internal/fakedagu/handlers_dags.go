// SPDX-License-Identifier: Apache-2.0

package fakedagu

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"time"
)

const (
	defaultDAGsPerPage = 50
	maxDAGsPerPage     = 200
	maxDAGFileNameLen  = 40
)

var dagFileNamePattern = regexp.MustCompile(`^[a-zA-Z0-9_.-]+$`)

// validDAGFileName applies the file-name check Dagu runs before every
// /dags/{fileName} handler; it answers 400 and returns false on failure.
// Releases before 2.6 do not check names (the lookup just fails).
func (s *Server) validDAGFileName(c *call) (string, bool) {
	name := c.params["fileName"]
	if !s.dialect.validatesDAGNames {
		return name, true
	}
	message := ""
	switch {
	case len(name) > maxDAGFileNameLen:
		message = "name must be less than 40 characters"
	case !dagFileNamePattern.MatchString(name):
		message = "name must only contain alphanumeric characters, dashes, dots, and underscores"
	case name == "." || name == "..":
		message = "name must not be '.' or '..'"
	}
	if message != "" {
		c.badRequest(message)
		return "", false
	}
	return name, true
}

// dagListQuery is the parsed query of GET /dags.
type dagListQuery struct {
	page, perPage int
	name          string
	workspace     string
	labels        []string
	byNextRun     bool
	descending    bool
}

func (c *call) dagListQuery(d *dialect) (dagListQuery, bool) {
	var q dagListQuery
	var ok bool
	if q.page, q.perPage, ok = c.pageParams(defaultDAGsPerPage, maxDAGsPerPage); !ok {
		return q, false
	}
	if _, ok := c.boolParam("active"); !ok {
		return q, false
	}
	if q.name, ok = c.stringParam("name"); !ok {
		return q, false
	}
	q.workspace = workspaceAll
	if d.dagListWorkspace {
		if q.workspace, ok = c.workspaceParam(); !ok {
			return q, false
		}
	}
	if q.labels, ok = c.labelFilter(d.dagLabels); !ok {
		return q, false
	}
	if !d.dagListSort {
		return q, true
	}
	sortField, ok := c.stringParam("sort")
	if !ok {
		return q, false
	}
	order, ok := c.stringParam("order")
	q.byNextRun, q.descending = sortField == "nextRun", order == "desc"
	return q, ok
}

// handleDAGs serves GET /dags.
func (s *Server) handleDAGs(c *call) {
	q, ok := c.dagListQuery(s.dialect)
	if !ok {
		return
	}
	var matched []*dagRecord
	for _, d := range s.listed {
		if s.visibleDAG(d) && workspaceHoldsDefault(q.workspace) && d.matchesName(q.name) && hasAllLabels(d.labels, q.labels) {
			matched = append(matched, d)
		}
	}
	sortDAGs(matched, q.byNextRun, q.descending, s.nextRunOf)
	start := min((q.page-1)*q.perPage, len(matched))
	end := min(start+q.perPage, len(matched))
	var items any // null: an empty page of a release that answers null
	if end > start || !s.dialect.emptyDAGsNull {
		page := make(arr, 0, end-start)
		for _, d := range matched[start:end] {
			page = append(page, d.listEntry)
		}
		items = page
	}
	c.ok(obj{"dags": items, "errors": nil, "pagination": pagination(len(matched), q.page, q.perPage)})
}

// matchesName is the name filter: a case-insensitive substring of the DAG
// name or its file name.
func (d *dagRecord) matchesName(fragment string) bool {
	f := strings.ToLower(fragment)
	return strings.Contains(strings.ToLower(d.name), f) || strings.Contains(strings.ToLower(d.fileName), f)
}

// nextRunOf is the next run a DAG list sorts by: the list entry's
// nextRun (suspended DAGs have none), or on releases whose list carries
// no nextRun the next time the schedule fires.
func (s *Server) nextRunOf(d *dagRecord) time.Time {
	if s.dialect.listNextRun {
		return d.nextRun
	}
	return cronNext(d.schedules, s.opts.Now())
}

// sortDAGs orders by name (case-insensitive), or by next run with DAGs
// that have one first; desc reverses the order.
func sortDAGs(dags []*dagRecord, byNextRun, desc bool, nextRunOf func(*dagRecord) time.Time) {
	next := map[*dagRecord]time.Time{}
	if byNextRun {
		for _, d := range dags {
			next[d] = nextRunOf(d)
		}
	}
	less := func(a, b *dagRecord) bool {
		na, nb := next[a], next[b]
		if byNextRun && na.IsZero() != nb.IsZero() {
			return !na.IsZero()
		}
		if byNextRun && !na.Equal(nb) {
			return na.Before(nb)
		}
		if la, lb := strings.ToLower(a.name), strings.ToLower(b.name); la != lb {
			return la < lb
		}
		return a.fileName < b.fileName
	}
	sort.SliceStable(dags, func(i, j int) bool {
		if desc {
			return less(dags[j], dags[i])
		}
		return less(dags[i], dags[j])
	})
}

// pagination builds Dagu's Pagination with its quirks: at least one page,
// nextPage stays on the last page, prevPage never drops below 1.
func pagination(total, page, perPage int) obj {
	pages := max(1, (total+perPage-1)/perPage)
	return obj{
		"totalRecords": total,
		"currentPage":  page,
		"totalPages":   pages,
		"nextPage":     min(page+1, pages),
		"prevPage":     max(page-1, 1),
	}
}

// handleDAG serves GET /dags/{fileName}.
func (s *Server) handleDAG(c *call) {
	name, ok := s.validDAGFileName(c)
	if !ok {
		return
	}
	d := s.dag(name)
	if d == nil {
		c.notFound(fmt.Sprintf(s.dialect.dagNotFound, name))
		return
	}
	c.ok(d.details)
}

// handleDAGSpec serves GET /dags/{fileName}/spec.
func (s *Server) handleDAGSpec(c *call) {
	name, ok := s.validDAGFileName(c)
	if !ok {
		return
	}
	d := s.dag(name)
	if d == nil {
		c.fail(s.dialect.specNotFound, codeNotFound, "DAG not found")
		return
	}
	c.ok(d.specBody)
}
