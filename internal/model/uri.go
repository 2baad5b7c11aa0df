// SPDX-License-Identifier: Apache-2.0

package model

import (
	"net/url"
	"strings"
)

// Builders of canonical dagu:// resource URIs. Every dynamic value is one
// path segment escaped with url.PathEscape, so a "/" inside a step name or a
// nested wiki path becomes %2F and stays inside its segment.

// Scheme is the URI scheme of every resource the read tool names.
const Scheme = "dagu://"

// part is one piece of a URI: a literal written as is, or a value that is
// escaped as one path segment.
type part struct {
	text    string
	literal bool
}

func lit(s string) part { return part{text: s, literal: true} }
func seg(s string) part { return part{text: s} }

// build writes scheme, family and parts into one pre-sized buffer, so a URI
// costs a single allocation when no value needs escaping.
func build(family string, parts ...part) string {
	n := len(Scheme) + len(family)
	for _, p := range parts {
		n += len(p.text) + 1
	}
	var b strings.Builder
	b.Grow(n)
	b.WriteString(Scheme)
	b.WriteString(family)
	for _, p := range parts {
		b.WriteByte('/')
		if p.literal {
			b.WriteString(p.text)
		} else {
			b.WriteString(EscapeSegment(p.text))
		}
	}
	return b.String()
}

// EscapeSegment escapes a value as one path segment of a dagu:// URI, the
// way every builder here does: a "/" inside it becomes %2F. A value that
// needs no escaping is returned as is, without allocating.
func EscapeSegment(s string) string {
	if !needsEscape(s) {
		return s
	}
	return url.PathEscape(s)
}

// needsEscape reports whether url.PathEscape would change s.
func needsEscape(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case strings.IndexByte("-._~$&+:=@", c) >= 0:
		default:
			return true
		}
	}
	return false
}

// WithQuery appends a raw query string to a URI when it is non-empty.
func WithQuery(uri, rawQuery string) string {
	if rawQuery == "" {
		return uri
	}
	return uri + "?" + rawQuery
}

// ReferencesURI is the reference collection URI.
func ReferencesURI() string { return Scheme + "reference" }

// ReferenceURI is the URI of one reference topic.
func ReferenceURI(topic string) string { return build("reference", seg(topic)) }

// DAGsURI is the DAG collection URI.
func DAGsURI() string { return Scheme + "dags" }

// DAGSpecURI is the URI of a DAG's YAML spec.
func DAGSpecURI(name string) string { return build("dags", seg(name), lit("spec")) }

// WikiURI is the wiki collection URI of a workspace; "" and "all" give the
// all-workspaces collection.
func WikiURI(workspace string) string {
	if workspace == "" || workspace == "all" {
		return Scheme + "wiki"
	}
	return build("wiki", seg(workspace))
}

// WikiPageURI is the URI of one wiki page; the page path is one segment.
func WikiPageURI(workspace, path string) string { return build("wiki", seg(workspace), seg(path)) }

// RunsURI is the DAG-run collection URI.
func RunsURI() string { return Scheme + "runs" }

// runBuild builds a run URI (root, or sub-run when subRunID is set) with a
// tail; the parts live in a local array so no slice is allocated.
func runBuild(name, dagRunID, subRunID string, tail ...part) string {
	var arr [12]part
	parts := append(arr[:0], seg(name), seg(dagRunID))
	if subRunID != "" {
		parts = append(parts, lit("sub"), seg(subRunID))
	}
	return build("runs", append(parts, tail...)...)
}

// RunURI is the URI of a root run, or of a sub-run when subRunID is set.
func RunURI(name, dagRunID, subRunID string) string {
	return runBuild(name, dagRunID, subRunID)
}

// RunLogsURI is the URI of a root run's logs.
func RunLogsURI(name, dagRunID string) string {
	return build("runs", seg(name), seg(dagRunID), lit("logs"))
}

// StepLogURI is the URI of a step's log in a root run or a sub-run.
func StepLogURI(name, dagRunID, subRunID, stepName string) string {
	return runBuild(name, dagRunID, subRunID, lit("steps"), seg(stepName), lit("logs"))
}

// ForeachItemsURI is the URI of a foreach step's item list.
func ForeachItemsURI(name, dagRunID, subRunID, stepName string) string {
	return runBuild(name, dagRunID, subRunID, lit("steps"), seg(stepName), lit("foreach"))
}

// ForeachItemURI is the URI of one foreach item.
func ForeachItemURI(name, dagRunID, subRunID, stepName, item string) string {
	return runBuild(name, dagRunID, subRunID, lit("steps"), seg(stepName), lit("foreach"), seg(item))
}

// ForeachStepLogURI is the URI of a body step's log inside a foreach item.
func ForeachStepLogURI(name, dagRunID, subRunID, stepName, item, bodyStepName string) string {
	return runBuild(name, dagRunID, subRunID,
		lit("steps"), seg(stepName), lit("foreach"), seg(item), lit("steps"), seg(bodyStepName), lit("logs"))
}
