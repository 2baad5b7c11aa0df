// SPDX-License-Identifier: Apache-2.0

package readtool

import (
	"fmt"
	"net/url"
	"strings"
)

// uriShape is what a dagu:// path resolves to before query validation.
type uriShape struct {
	target string
	values map[string]string
}

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
	shape, serr := shapeOf(u.Host, segments)
	if serr != nil {
		return nil, serr
	}
	return callForShape(shape, u.RawQuery)
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

func shapeOf(family string, segs []string) (*uriShape, *Error) {
	switch family {
	case "reference":
		return referenceShape(segs)
	case "dags":
		return dagsShape(segs)
	case "wiki", "docs":
		return wikiShape(segs)
	case "runs":
		return runsShape(segs)
	}
	return nil, newError(CodeUnsupportedResource, fmt.Sprintf("Unsupported resource family %q; dagu_read reads reference, dags, wiki and runs.", family))
}

func unsupportedPath(family string) *Error {
	return newError(CodeInvalidResourceURI, fmt.Sprintf("Unsupported %s resource path.", family))
}

func referenceShape(segs []string) (*uriShape, *Error) {
	switch len(segs) {
	case 0:
		return &uriShape{target: tReferences}, nil
	case 1:
		return &uriShape{target: tReference, values: map[string]string{fName: segs[0]}}, nil
	}
	return nil, unsupportedPath("reference")
}

func dagsShape(segs []string) (*uriShape, *Error) {
	switch {
	case len(segs) == 0:
		return &uriShape{target: tDAGs}, nil
	case len(segs) == 2 && segs[1] == "spec":
		return &uriShape{target: tDAGSpec, values: map[string]string{fName: segs[0]}}, nil
	}
	return nil, unsupportedPath("DAG")
}

func wikiShape(segs []string) (*uriShape, *Error) {
	switch len(segs) {
	case 0:
		return &uriShape{target: tWiki}, nil
	case 1:
		if segs[0] == allWorkspaces {
			return nil, newError(CodeInvalidResourceURI, "Use dagu://wiki for the all-workspaces collection.")
		}
		if !validWorkspace(segs[0]) {
			return nil, newError(CodeInvalidResourceURI, "The workspace segment is not a valid workspace name.")
		}
		return &uriShape{target: tWiki, values: map[string]string{fWorkspace: segs[0]}}, nil
	case 2:
		return wikiPageShape(segs[0], segs[1])
	}
	return nil, unsupportedPath("Wiki")
}

func wikiPageShape(workspace, path string) (*uriShape, *Error) {
	switch {
	case workspace == allWorkspaces:
		return nil, newError(CodeInvalidResourceURI, "A Wiki page resource requires a concrete workspace.")
	case !validWorkspace(workspace):
		return nil, newError(CodeInvalidResourceURI, "The workspace segment is not a valid workspace name.")
	case !validWikiPagePath(path):
		return nil, newError(CodeInvalidResourceURI, "The Wiki page path is not valid.")
	}
	return &uriShape{target: tWikiPage, values: map[string]string{fWorkspace: workspace, fPath: path}}, nil
}

// runsShape resolves dagu://runs paths: the collection, a root run, or a
// sub-run (`/sub/{subRunId}`), followed by the run's logs, a step's logs, a
// foreach step's items, one item, or a body step's logs.
func runsShape(segs []string) (*uriShape, *Error) {
	if len(segs) == 0 {
		return &uriShape{target: tRuns}, nil
	}
	if len(segs) < 2 {
		return nil, unsupportedPath("DAG-run")
	}
	v := map[string]string{fName: segs[0], fDAGRunID: segs[1]}
	rest := segs[2:]
	if len(rest) >= 2 && rest[0] == "sub" {
		v[fSubRunID] = rest[1]
		rest = rest[2:]
	}
	shape := runTailShape(rest, v)
	if shape == nil || (shape.target == tRunLogs && v[fSubRunID] != "") {
		return nil, unsupportedPath("DAG-run")
	}
	return shape, nil
}

func runTailShape(rest []string, v map[string]string) *uriShape {
	switch {
	case len(rest) == 0:
		return &uriShape{target: tRun, values: v}
	case len(rest) == 1 && rest[0] == "logs":
		return &uriShape{target: tRunLogs, values: v}
	case len(rest) < 3 || rest[0] != "steps":
		return nil
	}
	v[fStepName] = rest[1]
	switch tail := rest[2:]; {
	case len(tail) == 1 && tail[0] == "logs":
		return &uriShape{target: tStepLog, values: v}
	case len(tail) == 1 && tail[0] == "foreach":
		return &uriShape{target: tForeachItems, values: v}
	case len(tail) == 2 && tail[0] == "foreach":
		v[fItem] = tail[1]
		return &uriShape{target: tForeachItem, values: v}
	case len(tail) == 5 && tail[0] == "foreach" && tail[2] == "steps" && tail[4] == "logs":
		v[fItem], v[fBodyStepName] = tail[1], tail[3]
		return &uriShape{target: tStepLog, values: v}
	}
	return nil
}

// callForShape validates the URI's query for the derived target and builds
// the call with the re-escaped canonical URI.
func callForShape(shape *uriShape, rawQuery string) (*call, *Error) {
	in := &input{values: shape.values}
	if in.values == nil {
		in.values = map[string]string{}
	}
	if rawQuery != "" {
		in.values[fQuery] = rawQuery
	}
	spec := targets[shape.target]
	c := &call{mode: uriMode, target: spec.name, spec: spec, in: in}
	if e := checkSegmentLimits(shape.values); e != nil {
		e.Target = shape.target
		return nil, e
	}
	if rawQuery != "" && spec.noQuery != "" {
		e := newError(CodeInvalidResourceURI, spec.noQuery)
		e.Target = shape.target
		return nil, e
	}
	values, problem := parseQuery(spec, rawQuery)
	if problem != nil {
		e := queryError(problem, c)
		e.Target = shape.target
		return nil, e
	}
	c.query = values
	c.uri = spec.uri(c)
	return c, nil
}
