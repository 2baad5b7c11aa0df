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

func join(family string, segments ...string) string {
	var b strings.Builder
	b.WriteString(Scheme)
	b.WriteString(family)
	for _, s := range segments {
		b.WriteByte('/')
		b.WriteString(url.PathEscape(s))
	}
	return b.String()
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
func ReferenceURI(topic string) string { return join("reference", topic) }

// DAGsURI is the DAG collection URI.
func DAGsURI() string { return Scheme + "dags" }

// DAGSpecURI is the URI of a DAG's YAML spec.
func DAGSpecURI(name string) string { return join("dags", name) + "/spec" }

// WikiURI is the wiki collection URI of a workspace; "" and "all" give the
// all-workspaces collection.
func WikiURI(workspace string) string {
	if workspace == "" || workspace == "all" {
		return Scheme + "wiki"
	}
	return join("wiki", workspace)
}

// WikiPageURI is the URI of one wiki page; the page path is one segment.
func WikiPageURI(workspace, path string) string { return join("wiki", workspace, path) }

// RunsURI is the DAG-run collection URI.
func RunsURI() string { return Scheme + "runs" }

// RunURI is the URI of a root run, or of a sub-run when subRunID is set.
func RunURI(name, dagRunID, subRunID string) string {
	if subRunID == "" {
		return join("runs", name, dagRunID)
	}
	return join("runs", name, dagRunID, "sub", subRunID)
}

// RunLogsURI is the URI of a root run's logs.
func RunLogsURI(name, dagRunID string) string { return join("runs", name, dagRunID) + "/logs" }

// StepLogURI is the URI of a step's log in a root run or a sub-run.
func StepLogURI(name, dagRunID, subRunID, stepName string) string {
	return RunURI(name, dagRunID, subRunID) + "/steps/" + url.PathEscape(stepName) + "/logs"
}

// ForeachItemsURI is the URI of a foreach step's item list.
func ForeachItemsURI(name, dagRunID, subRunID, stepName string) string {
	return RunURI(name, dagRunID, subRunID) + "/steps/" + url.PathEscape(stepName) + "/foreach"
}

// ForeachItemURI is the URI of one foreach item.
func ForeachItemURI(name, dagRunID, subRunID, stepName, item string) string {
	return ForeachItemsURI(name, dagRunID, subRunID, stepName) + "/" + url.PathEscape(item)
}

// ForeachStepLogURI is the URI of a body step's log inside a foreach item.
func ForeachStepLogURI(name, dagRunID, subRunID, stepName, item, bodyStepName string) string {
	return ForeachItemURI(name, dagRunID, subRunID, stepName, item) +
		"/steps/" + url.PathEscape(bodyStepName) + "/logs"
}
