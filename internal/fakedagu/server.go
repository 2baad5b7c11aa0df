package fakedagu

import (
	"net/http"
	"strings"
	"sync"
	"time"
)

// apiPrefix is where Dagu mounts its REST API below the base path.
const apiPrefix = "/api/v1"

// Server is a fake Dagu REST API. It is an http.Handler; use it with
// httptest.NewServer or http.Serve.
type Server struct {
	opts    Options
	data    *dataset
	router  *router
	started time.Time

	log    requestLog
	mu     sync.Mutex // guards faults
	faults []*activeFault
}

// New returns a fake server. The recorded data is parsed once per process,
// so New is cheap unless opts.Rebase asks for shifted timestamps.
func New(opts Options) *Server {
	opts = opts.withDefaults()
	s := &Server{opts: opts, data: datasetFor(opts.Rebase)}
	s.started = opts.Now()
	s.router = &router{routes: s.routeTable()}
	return s
}

// Requests returns every request received since the start or the last Reset.
func (s *Server) Requests() []Request { return s.log.snapshot() }

// Reset forgets the recorded requests.
func (s *Server) Reset() { s.log.reset() }

// ServeHTTP answers one request: fault injection first, then the API's
// authentication, then routing (router 404, 405 for other methods).
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	entry := s.log.add(r)
	sw := &statusWriter{ResponseWriter: w}
	defer func() { s.log.finish(entry, sw.status) }()

	rel, inAPI := s.apiRelative(r.URL.EscapedPath())
	var rt *route
	var params map[string]string
	if inAPI {
		rt, params = s.router.find(rel)
	}
	template := ""
	if rt != nil {
		template = rt.template
	}
	if f := s.takeFault(template); f != nil && applyFault(sw, r, f) {
		return
	}
	s.serve(sw, r, rel, inAPI, rt, params)
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request, rel string, inAPI bool, rt *route, params map[string]string) {
	switch {
	case !inAPI:
		http.NotFound(w, r)
	case len(rel) > 1 && strings.HasSuffix(rel, "/"):
		redirectWithoutSlash(w, r)
	case !isPublic(rt) && !s.authorize(w, r):
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

// apiRelative strips BasePath + "/api/v1" from an escaped path.
func (s *Server) apiRelative(escapedPath string) (string, bool) {
	prefix := s.opts.BasePath + apiPrefix
	if escapedPath == prefix {
		return "/", true
	}
	rest, ok := strings.CutPrefix(escapedPath, prefix+"/")
	if !ok {
		return "", false
	}
	return "/" + rest, true
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

// isPublic reports whether a route answers without credentials.
func isPublic(rt *route) bool { return rt != nil && rt.template == "/health" }

// authorize applies the API's bearer-key check; it writes the refusal and
// returns false when the request may not proceed.
func (s *Server) authorize(w http.ResponseWriter, r *http.Request) bool {
	if s.opts.APIKey == "" {
		return true
	}
	token, hasToken := bearerToken(r.Header.Get("Authorization"))
	switch {
	case hasToken && token == s.opts.APIKey:
		return true
	case hasToken && s.opts.MCPOnlyKey != "" && token == s.opts.MCPOnlyKey:
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.WriteHeader(http.StatusForbidden)
		_, _ = w.Write([]byte("API key is not allowed for this surface\n"))
	default:
		w.Header().Set("WWW-Authenticate", `Bearer realm="restricted"`)
		w.WriteHeader(http.StatusUnauthorized)
	}
	return false
}

func bearerToken(header string) (string, bool) {
	scheme, token, ok := strings.Cut(header, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") || strings.TrimSpace(token) == "" {
		return "", false
	}
	return strings.TrimSpace(token), true
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
