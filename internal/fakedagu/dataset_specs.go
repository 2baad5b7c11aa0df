// SPDX-License-Identifier: Apache-2.0

package fakedagu

import (
	"net/url"
	"regexp"
	"strings"
)

// Spec texts of DAGs whose spec was never recorded whole are pieced
// together from the recorded search answers: every snippet reveals a few
// numbered lines. Lines no snippet shows become "#" (an empty YAML
// comment), so a search over the pieced text finds exactly the recorded
// matches. Authored specs win over pieced ones.

// unrevealedLine stands for a spec line no recorded snippet shows.
const unrevealedLine = "#"

var matchesPath = regexp.MustCompile(`^/search/dags/([^/?]+)/matches(\?|$)`)

// addSnippetSpecs adds pieced spec texts for DAGs without one.
func (src *sources) addSnippetSpecs() {
	lines := map[string]map[int]string{}
	for p, body := range src.recorded {
		o, ok := body.(obj)
		if !ok {
			continue
		}
		switch {
		case strings.HasPrefix(p, "/dags/search?"), strings.HasPrefix(p, "/search/dags?"):
			for _, e := range getArr(o, "results") {
				item := mustObj(e, "search result")
				name := getStr(item, "fileName")
				if name == "" {
					name = getStr(item, "name")
				}
				addSnippetLines(lines, name, getArr(item, "matches"))
			}
		case matchesPath.MatchString(p):
			addSnippetLines(lines, unescapeSegment(matchesPath.FindStringSubmatch(p)[1]), getArr(o, "matches"))
		}
	}
	for name, known := range lines {
		if _, authored := src.specs[name]; !authored {
			src.specs[name] = piecedSpec(known)
		}
	}
}

func addSnippetLines(lines map[string]map[int]string, name string, matches arr) {
	if name == "" {
		return
	}
	if lines[name] == nil {
		lines[name] = map[int]string{}
	}
	for _, m := range matches {
		match := mustObj(m, "search match")
		first := getInt(match, "startLine")
		for i, l := range strings.Split(getStr(match, "line"), "\n") {
			lines[name][first+i] = l
		}
	}
}

// piecedSpec joins numbered lines, filling gaps with unrevealedLine.
func piecedSpec(known map[int]string) string {
	last := 0
	for n := range known {
		last = max(last, n)
	}
	var b strings.Builder
	for n := 1; n <= last; n++ {
		l, ok := known[n]
		if !ok {
			l = unrevealedLine
		}
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return b.String()
}

// specOf decides a DAG's spec text: the recorded details' spec, the
// recorded spec route's, or the authored or pieced one.
func (src *sources) specOf(fileName string) string {
	rel := "/dags/" + url.PathEscape(fileName)
	if s, ok := src.optionalBody(rel)["spec"].(string); ok {
		return s
	}
	if s, ok := src.optionalBody(rel + "/spec")["spec"].(string); ok {
		return s
	}
	return src.specs[fileName]
}
