// SPDX-License-Identifier: Apache-2.0

package fakedagu

// handleLegacyDAGSearch serves GET /dags/search?q= of 1.x to 2.6: every
// DAG whose spec has a line matching (?i)q as a regular expression, in file-name order, with all its
// matches and its list entry's DAG object; no paging.
func (s *Server) handleLegacyDAGSearch(c *call) {
	q, ok := c.requiredString("q")
	if !ok {
		return
	}
	results := arr{}
	for _, d := range s.data.dags {
		if !s.visibleDAG(d) {
			continue
		}
		matches := findPatternMatches(d.spec, "(?i)"+q)
		if len(matches) == 0 {
			continue
		}
		results = append(results, obj{"name": d.fileName, "dag": searchDAGObject(d), "matches": matchBodies(matches)})
	}
	c.ok(obj{"errors": nil, "results": results})
}

// searchDAGObject is the DAG object a legacy search result shows: the list
// entry's without empty labels and tags lists, with the DAG's parameters
// (which 2.6 lists leave out).
func searchDAGObject(d *dagRecord) obj {
	dag := mustObj(deepCopy(getObj(d.listEntry, "dag")), "DAG")
	for _, k := range []string{"labels", "tags"} {
		if v, ok := dag[k].(arr); ok && len(v) == 0 {
			delete(dag, k)
		}
	}
	details := getObj(d.details, "dag")
	for _, k := range []string{"defaultParams", "params"} {
		if v, ok := details[k]; ok && !isEmptyJSON(v) {
			dag[k] = deepCopy(v)
		}
	}
	return dag
}

// isEmptyJSON reports whether a value is null, "" or an empty list.
func isEmptyJSON(v any) bool {
	switch t := v.(type) {
	case nil:
		return true
	case string:
		return t == ""
	case arr:
		return len(t) == 0
	}
	return false
}
