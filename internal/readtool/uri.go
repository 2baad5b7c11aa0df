// SPDX-License-Identifier: Apache-2.0

package readtool

import (
	"cmp"
	"fmt"
	"net/url"
	"strings"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
)

// resolveURI validates a URI-mode request and derives its target.
func resolveURI(raw string) (*call, *Error) {
	c, err := parseResourceURI(raw)
	if err != nil {
		err.URI, err.Field = raw, fURI
		return nil, err
	}
	c.inputURI = raw
	return c, nil
}

func parseResourceURI(raw string) (*call, *Error) {
	if len(raw) < len("dagu://") || !strings.EqualFold(raw[:len("dagu://")], "dagu://") {
		return nil, newError(CodeInvalidResourceURI, "The uri must be a dagu:// resource URI.")
	}
	u, err := url.Parse(raw)
	if err != nil || u.Opaque != "" || u.User != nil || u.Host == "" ||
		strings.Contains(u.Host, ":") || strings.Contains(raw, "#") {
		return nil, newError(CodeInvalidResourceURI, "Invalid dagu resource URI.")
	}
	segments, perr := pathSegments(u.EscapedPath())
	if perr != nil {
		return nil, perr
	}
	m, values, merr := matchURI(u.Host, segments)
	if merr != nil {
		return nil, merr
	}
	return callForURI(m, values, u.RawQuery)
}

// pathSegments splits an escaped URI path into decoded segments. A single
// trailing slash is tolerated; empty segments are not.
func pathSegments(escaped string) ([]string, *Error) {
	escaped = strings.TrimSuffix(escaped, "/")
	if escaped == "" {
		return nil, nil
	}
	parts := strings.Split(strings.TrimPrefix(escaped, "/"), "/")
	for i, p := range parts {
		seg, err := url.PathUnescape(p)
		if err != nil || seg == "" {
			return nil, newError(CodeInvalidResourceURI, "The uri path has an empty or malformed segment.")
		}
		parts[i] = seg
	}
	return parts, nil
}

// familyAliases are deprecated families read as their successors.
var familyAliases = map[string]string{"docs": "wiki"}

// familyNouns name each URI family in "Unsupported ... resource path.".
var familyNouns = nounsOf(targetTable)

// nounsOf names each family of the rows' patterns: the noun its first
// pattern is called by, else the family's own name.
func nounsOf(rows []targetSpec) map[string]string {
	m := map[string]string{}
	for i := range rows {
		for _, p := range rows[i].patterns {
			if _, named := m[p.family]; !named {
				m[p.family] = cmp.Or(p.noun, p.family)
			}
		}
	}
	return m
}

// rowPattern is one pattern together with the row that owns it.
type rowPattern struct {
	spec    *targetSpec
	pattern *uriPattern
}

// patternsByFamily indexes every row's patterns by URI family, in table
// order; families lists the families in first-seen order.
var patternsByFamily, families = indexPatterns(targetTable)

// indexPatterns indexes the rows' patterns by URI family and lists the
// families in first-seen order.
func indexPatterns(rows []targetSpec) (map[string][]rowPattern, []string) {
	m := map[string][]rowPattern{}
	var order []string
	for i := range rows {
		spec := &rows[i]
		for j := range spec.patterns {
			p := &spec.patterns[j]
			if _, seen := m[p.family]; !seen {
				order = append(order, p.family)
			}
			m[p.family] = append(m[p.family], rowPattern{spec, p})
		}
	}
	return m, order
}

// unsupportedFamily names the families dagu_read reads.
var unsupportedFamily = unsupportedFamilyOf(families)

// unsupportedFamilyOf is the message refusing a family, naming families.
func unsupportedFamilyOf(families []string) string {
	list := strings.Join(families[:len(families)-1], ", ") + " and " + families[len(families)-1]
	return "Unsupported resource family %q; dagu_read reads " + list + "."
}

// matchURI finds the row and pattern a URI's family and decoded path
// segments address, and the field values the segments give.
func matchURI(family string, segs []string) (*rowPattern, map[string]string, *Error) {
	if canonical, ok := familyAliases[family]; ok {
		family = canonical
	}
	candidates, ok := patternsByFamily[family]
	if !ok {
		return nil, nil, newError(CodeUnsupportedResource, fmt.Sprintf(unsupportedFamily, family))
	}
	for i := range candidates {
		if values, ok := candidates[i].pattern.match(segs); ok {
			return &candidates[i], values, nil
		}
	}
	return nil, nil, newError(CodeInvalidResourceURI, fmt.Sprintf("Unsupported %s resource path.", familyNouns[family]))
}

// checkWikiSegments wants a concrete, valid workspace segment when there
// is one: the all-workspaces wiki is dagu://wiki.
func checkWikiSegments(v map[string]string) *Error {
	ws, ok := v[fWorkspace]
	switch {
	case !ok:
		return nil
	case ws == allWorkspaces:
		return newError(CodeInvalidResourceURI, "Use dagu://wiki for the all-workspaces collection.")
	case !validWorkspace(ws):
		return newError(CodeInvalidResourceURI, "The workspace segment is not a valid workspace name.")
	}
	return nil
}

// checkWikiPageSegments wants a concrete workspace and a valid page path.
func checkWikiPageSegments(v map[string]string) *Error {
	switch {
	case v[fWorkspace] == allWorkspaces:
		return newError(CodeInvalidResourceURI, "A Wiki page resource requires a concrete workspace.")
	case !validWorkspace(v[fWorkspace]):
		return newError(CodeInvalidResourceURI, "The workspace segment is not a valid workspace name.")
	case !validWikiPagePath(v[fPath]):
		return newError(CodeInvalidResourceURI, "The Wiki page path is not valid.")
	}
	return nil
}

// callForURI validates the URI's segments and query for the matched row
// and builds the call with the canonical URI, from the same pattern.
func callForURI(m *rowPattern, values map[string]string, rawQuery string) (*call, *Error) {
	spec := m.spec
	if spec.checkSegments != nil {
		if e := spec.checkSegments(values); e != nil {
			return nil, e
		}
	}
	in := &input{values: values}
	if rawQuery != "" {
		in.values[fQuery] = rawQuery
	}
	// The segments, and the query with them, are held to the fields'
	// limits; a collection's query is bounded by the uri's limit alone.
	if len(m.pattern.vars) > 0 {
		if e := checkSegmentLimits(values); e != nil {
			e.Target = spec.name
			return nil, e
		}
	}
	c := &call{mode: uriMode, target: spec.name, spec: spec, in: in, pattern: m.pattern}
	if rawQuery != "" && spec.noQuery != "" {
		e := newError(CodeInvalidResourceURI, spec.noQuery)
		e.Target = spec.name
		return nil, e
	}
	if e := spec.reader.prepare(c, rawQuery); e != nil {
		e.Target = spec.name
		return nil, e
	}
	c.uri = model.WithQuery(m.pattern.build(in.get), c.rawQuery())
	return c, nil
}
