// SPDX-License-Identifier: Apache-2.0

package fakedagu

import (
	"net/http"
	"strings"
	"sync"
	"time"
)

// Server is a fake Dagu REST API. It is an http.Handler; use it with
// httptest.NewServer or http.Serve.
type Server struct {
	opts    Options
	dialect *dialect
	data    *dataset
	// listed is the dataset's DAGs plus Options.ListedDAGs, as the DAG
	// list shows them.
	listed  []*dagRecord
	router  *router
	legacy  *router // the legacy API base of 1.17 (nil elsewhere)
	started time.Time
	// wideBigLog is big_log_job's spew stdout with Options.BigLogLineWidth
	// (nil: the generated log as it is).
	wideBigLog *logFile

	log    requestLog
	mu     sync.Mutex // guards faults
	faults []*activeFault
}

// New returns a fake server. The recorded data is parsed once per process
// and profile, so New is cheap unless opts.Rebase asks for shifted
// timestamps. New panics on a profile ParseProfile would reject.
func New(opts Options) *Server {
	opts = opts.withDefaults()
	d, ok := dialects[opts.Profile]
	if !ok {
		panic("fakedagu: unknown profile " + string(opts.Profile))
	}
	s := &Server{opts: opts, dialect: d, data: datasetFor(d, opts.Rebase)}
	s.listed = withListedDAGs(s.data.dags, opts.ListedDAGs)
	s.started = opts.Now()
	s.wideBigLog = wideBigLogStdout(opts.BigLogLineWidth)
	s.router = &router{routes: s.routeTable()}
	if d.legacyBase != "" {
		s.legacy = &router{routes: legacyRoutes()}
	}
	return s
}

// Profile returns the release the server imitates.
func (s *Server) Profile() Profile { return s.dialect.profile }

// APIPrefix returns where the server's REST API lives below its base
// path: "/api/v1", or "/api/v2" for 1.29 and 1.17.
func (s *Server) APIPrefix() string { return s.dialect.apiBase }

// Requests returns every request received since the start or the last Reset.
func (s *Server) Requests() []Request { return s.log.snapshot() }

// Reset forgets the recorded requests.
func (s *Server) Reset() { s.log.reset() }

// apiPlace is where a request path falls: in which API (router) and at
// which path relative to that API's base.
type apiPlace struct {
	router *router // nil: outside every API
	legacy bool
	rel    string
}

// ServeHTTP answers one request: fault injection first, then the API's
// authentication, then routing (router 404, 405 for other methods).
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	entry := s.log.add(r)
	sw := &statusWriter{ResponseWriter: w}
	defer func() { s.log.finish(entry, sw.status) }()

	place := s.locate(r.URL.EscapedPath())
	var rt *route
	var params map[string]string
	if place.router != nil {
		rt, params = place.router.find(place.rel)
	}
	template := ""
	if rt != nil {
		template = rt.template
	}
	if f := s.takeFault(template); f != nil && applyFault(sw, r, f) {
		return
	}
	s.serve(sw, r, place, rt, params)
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request, place apiPlace, rt *route, params map[string]string) {
	switch {
	case place.router == nil:
		s.serveOutsideAPI(w, r)
	case len(place.rel) > 1 && strings.HasSuffix(place.rel, "/"):
		redirectWithoutSlash(w, r)
	case !s.isPublic(place, rt) && !s.authorize(w, r):
		// authorize has written the refusal.
	case rt == nil:
		http.NotFound(w, r)
	case r.Method != http.MethodGet:
		w.Header().Set("Allow", http.MethodGet)
		w.WriteHeader(http.StatusMethodNotAllowed)
	default:
		rt.handler(s, &call{w: w, r: r, params: params, query: r.URL.Query()})
	}
}

// locate strips BasePath and the API base from an escaped path.
func (s *Server) locate(escapedPath string) apiPlace {
	if rel, ok := cutBase(escapedPath, s.opts.BasePath+s.dialect.apiBase); ok {
		return apiPlace{router: s.router, rel: rel}
	}
	if s.legacy != nil {
		if rel, ok := cutBase(escapedPath, s.opts.BasePath+s.dialect.legacyBase); ok {
			return apiPlace{router: s.legacy, legacy: true, rel: rel}
		}
	}
	return apiPlace{}
}

// cutBase returns the path below prefix ("/" for prefix itself).
func cutBase(escapedPath, prefix string) (string, bool) {
	if escapedPath == prefix {
		return "/", true
	}
	rest, ok := strings.CutPrefix(escapedPath, prefix+"/")
	if !ok {
		return "", false
	}
	return "/" + rest, true
}

// serveOutsideAPI answers a path outside every API: Dagu 2.x serves its
// web UI for any such path below the base path; the others answer the
// router's 404.
func (s *Server) serveOutsideAPI(w http.ResponseWriter, r *http.Request) {
	p := r.URL.EscapedPath()
	if s.dialect.webUI && (s.opts.BasePath == "" || p == s.opts.BasePath || strings.HasPrefix(p, s.opts.BasePath+"/")) {
		writeWebUI(w, r)
		return
	}
	http.NotFound(w, r)
}

// redirectWithoutSlash answers a path with a trailing slash the way the
// router does: a permanent redirect to the path without it.
func redirectWithoutSlash(w http.ResponseWriter, r *http.Request) {
	target := strings.TrimRight(r.URL.EscapedPath(), "/")
	if r.URL.RawQuery != "" {
		target += "?" + r.URL.RawQuery
	}
	http.Redirect(w, r, target, http.StatusMovedPermanently)
}

// isPublic reports whether a route answers without credentials: /health,
// except under 1.17's current API base (only its legacy /health is open).
func (s *Server) isPublic(place apiPlace, rt *route) bool {
	return rt != nil && rt.template == "/health" && (place.legacy || s.dialect.publicHealth)
}

// canReadEventLogs reports whether the caller's role may read /event-logs;
// role checks do not exist in auth mode none.
func (s *Server) canReadEventLogs() bool {
	return s.opts.APIKey == "" || s.opts.Role == roleManager || s.opts.Role == roleAdmin
}

// visibleDAG and visibleRun hide the additions when RecordedOnly is set.
func (s *Server) visibleDAG(d *dagRecord) bool { return d != nil && !(d.extra && s.opts.RecordedOnly) }
func (s *Server) visibleRun(r *runRecord) bool { return r != nil && !(r.extra && s.opts.RecordedOnly) }

// dag looks up a visible DAG file.
func (s *Server) dag(fileName string) *dagRecord {
	if d := s.data.dagByFile[fileName]; s.visibleDAG(d) {
		return d
	}
	return nil
}

// rootRun looks up a visible root run by plain ID.
func (s *Server) rootRun(name, id string) *runRecord {
	if r := s.data.runByKey[runKey{name, id}]; s.visibleRun(r) {
		return r
	}
	return nil
}
