// SPDX-License-Identifier: Apache-2.0

package restclient

import (
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strings"
)

// pattern is one allow-listed route template split into path segments. An
// empty literal marks a {param} segment.
type pattern struct {
	template string
	literals []string
	query    map[string]bool
}

// matcher finds the route template an escaped REST path belongs to.
type matcher struct {
	patterns []pattern
}

// newMatcher compiles route templates. Patterns with more literal segments
// are tried first, so a literal always beats a parameter.
func newMatcher(routes map[string][]string) *matcher {
	m := &matcher{}
	for template, keys := range routes {
		m.patterns = append(m.patterns, compilePattern(template, keys))
	}
	sort.Slice(m.patterns, func(i, j int) bool {
		li, lj := literalCount(m.patterns[i]), literalCount(m.patterns[j])
		if li != lj {
			return li > lj
		}
		return m.patterns[i].template < m.patterns[j].template
	})
	return m
}

func compilePattern(template string, keys []string) pattern {
	p := pattern{template: template, query: map[string]bool{}}
	for _, seg := range strings.Split(strings.TrimPrefix(template, "/"), "/") {
		if strings.HasPrefix(seg, "{") && strings.HasSuffix(seg, "}") {
			seg = ""
		}
		p.literals = append(p.literals, seg)
	}
	for _, k := range keys {
		p.query[k] = true
	}
	return p
}

func literalCount(p pattern) int {
	n := 0
	for _, l := range p.literals {
		if l != "" {
			n++
		}
	}
	return n
}

// match returns the pattern of an escaped path such as "/dags/a%2Fb", which
// must start with "/". Each {param} takes exactly one escaped segment whose
// value is acceptable (see validParam).
func (m *matcher) match(escapedPath string) (pattern, bool) {
	if !strings.HasPrefix(escapedPath, "/") {
		return pattern{}, false
	}
	segs := strings.Split(escapedPath[1:], "/")
	for _, p := range m.patterns {
		if p.matches(segs) {
			return p, true
		}
	}
	return pattern{}, false
}

func (p pattern) matches(segs []string) bool {
	if len(segs) != len(p.literals) {
		return false
	}
	for i, lit := range p.literals {
		if lit != "" && segs[i] != lit {
			return false
		}
		if lit == "" && !validEscapedParam(segs[i]) {
			return false
		}
	}
	return true
}

func validEscapedParam(seg string) bool {
	value, err := url.PathUnescape(seg)
	return err == nil && validParam(value)
}

// validParam reports whether a decoded path parameter is safe to send: not
// empty, and no "." or ".." element even when the value holds escaped
// slashes, so no server that joins it into a file path can climb out.
func validParam(value string) bool {
	if value == "" {
		return false
	}
	for _, elem := range strings.Split(value, "/") {
		if elem == "." || elem == ".." {
			return false
		}
	}
	return true
}

// guard refuses every request that is not a GET of an allow-listed route on
// the configured Dagu server. It checks what will go on the wire: the
// escaped path and the raw query of the final *http.Request.
type guard struct {
	scheme, host string
	// prefixes are the escaped REST base paths, e.g. "/api/v1" and
	// "/dagu/api/v2": the allow-list applies under each.
	prefixes []string
	// bases[i] is the API base prefixes[i] ends in ("" for none).
	bases   []APIBase
	matcher *matcher
}

func newGuard(restBases ...*url.URL) *guard {
	g := &guard{scheme: restBases[0].Scheme, host: strings.ToLower(restBases[0].Host), matcher: newMatcher(allowedRoutes)}
	for _, b := range restBases {
		prefix := strings.TrimSuffix(b.EscapedPath(), "/")
		g.prefixes = append(g.prefixes, prefix)
		g.bases = append(g.bases, apiBaseOfPrefix(prefix))
	}
	return g
}

// apiBaseOfPrefix is the API base a REST base path ends in, or "".
func apiBaseOfPrefix(prefix string) APIBase {
	for _, b := range apiBases {
		if strings.HasSuffix(prefix, string(b)) {
			return b
		}
	}
	return ""
}

// apiBase is the API base the request u addresses (the one its path
// starts under), or "" for none.
func (g *guard) apiBase(u *url.URL) APIBase {
	escaped := u.EscapedPath()
	for i, prefix := range g.prefixes {
		if rest, ok := strings.CutPrefix(escaped, prefix); ok && strings.HasPrefix(rest, "/") {
			return g.bases[i]
		}
	}
	return ""
}

// restPath returns the escaped path below one of the REST bases.
func (g *guard) restPath(escaped string) (string, bool) {
	for _, prefix := range g.prefixes {
		if rest, ok := strings.CutPrefix(escaped, prefix); ok && strings.HasPrefix(rest, "/") {
			return rest, true
		}
	}
	return "", false
}

// check returns the route template of an allowed request, or a Refused
// error naming what was wrong. The route is "" when none matched.
func (g *guard) check(req *http.Request) (string, error) {
	if req.Method != http.MethodGet {
		return "", refused("", "method %s is not allowed", req.Method)
	}
	if req.Body != nil && req.Body != http.NoBody {
		return "", refused("", "a request body is not allowed")
	}
	u := req.URL
	if u == nil || u.Scheme != g.scheme || strings.ToLower(u.Host) != g.host || u.User != nil || u.Opaque != "" {
		return "", refused("", "the request does not target the configured Dagu server")
	}
	rest, ok := g.restPath(u.EscapedPath())
	if !ok {
		return "", refused("", "the path is outside the Dagu REST base")
	}
	p, ok := g.matcher.match(rest)
	if !ok {
		return "", refused("", "the path is not an allowed route")
	}
	return p.template, checkQuery(p, u.RawQuery)
}

func checkQuery(p pattern, rawQuery string) error {
	values, err := url.ParseQuery(rawQuery)
	if err != nil {
		return refused(p.template, "the query string is malformed")
	}
	for key := range values {
		if !p.query[key] {
			return refused(p.template, "query key %q is not allowed", key)
		}
	}
	return nil
}

func refused(route, format string, args ...any) *Error {
	return &Error{Route: route, Refused: true, Excerpt: "transport guard: " + fmt.Sprintf(format, args...)}
}

// defaultMatcher serves AllowedRoute.
var defaultMatcher = newMatcher(allowedRoutes)

// AllowedRoute reports the route template a GET of restPath (escaped, below
// the REST base, e.g. "/dags/a%2Fb") with rawQuery matches, or false when
// the transport guard would refuse it. Tests use it to check what reached a
// fake Dagu.
func AllowedRoute(method, restPath, rawQuery string) (string, bool) {
	if method != http.MethodGet {
		return "", false
	}
	p, ok := defaultMatcher.match(restPath)
	if !ok || checkQuery(p, rawQuery) != nil {
		return "", false
	}
	return p.template, true
}
