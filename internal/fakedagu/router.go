// SPDX-License-Identifier: Apache-2.0

package fakedagu

import (
	"net/url"
	"strings"
)

// routeHandler serves one matched request.
type routeHandler func(s *Server, c *call)

// route is a GET route template relative to the API base, such as
// "/dag-runs/{name}/{dagRunId}".
type route struct {
	template string
	parts    []string
	handler  routeHandler
}

func newRoute(template string, h routeHandler) route {
	return route{template: template, parts: strings.Split(strings.Trim(template, "/"), "/"), handler: h}
}

// match reports whether the escaped path segments fit the template and
// returns the unescaped path parameters.
func (rt route) match(segments []string) (map[string]string, bool) {
	if len(segments) != len(rt.parts) {
		return nil, false
	}
	params := map[string]string{}
	for i, part := range rt.parts {
		value, err := url.PathUnescape(segments[i])
		if err != nil {
			return nil, false
		}
		if strings.HasPrefix(part, "{") {
			if value == "" {
				return nil, false
			}
			params[strings.Trim(part, "{}")] = value
			continue
		}
		if value != part {
			return nil, false
		}
	}
	return params, true
}

func (rt route) literals() int {
	n := 0
	for _, p := range rt.parts {
		if !strings.HasPrefix(p, "{") {
			n++
		}
	}
	return n
}

// router matches request paths against a fixed set of routes; like chi it
// prefers literal segments over parameters.
type router struct {
	routes []route
}

// find returns the best route for an escaped path relative to the API base.
func (rr *router) find(escapedPath string) (*route, map[string]string) {
	segments := strings.Split(strings.Trim(escapedPath, "/"), "/")
	var best *route
	var bestParams map[string]string
	for i := range rr.routes {
		params, ok := rr.routes[i].match(segments)
		if ok && (best == nil || rr.routes[i].literals() > best.literals()) {
			best, bestParams = &rr.routes[i], params
		}
	}
	return best, bestParams
}
