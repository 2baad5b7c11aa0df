// SPDX-License-Identifier: Apache-2.0

package frontdoor

import (
	"log/slog"
	"net/http"
	"runtime/debug"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/logsample"
	"github.com/dagu-mcp-gateway/gateway/internal/reqctx"
)

// observe logs one line per request and turns a panic into a 500. The line
// holds method, path, status, duration and remote address (and who signed
// in, with the rule that admitted them) only: never headers, query strings
// or bodies, which may carry tokens. Probe routes
// log at debug level so that they do not drown the rest. Lines of
// requests whose caller never proved who it is pass through sampler (see
// internal/logsample); a line after dropped ones says how many were dropped.
func observe(h http.Handler, logger *slog.Logger, sampler *logsample.Sampler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rec := &statusRecorder{ResponseWriter: w}
		r, note := withRequestNote(r)
		r, pendingEnds := watchPending(r)
		defer pendingEnds()
		info, _ := reqctx.From(r.Context())
		if info.Trust == reqctx.TrustVerified {
			note.verified.Store(true) // an accepted inbound token (withRequestID)
		}
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v) // the server's own signal to drop the connection
				}
				logger.Error("http handler panic", "path", r.URL.Path, "panic", v, "stack", string(debug.Stack()))
				if !rec.wroteHeader {
					writeError(rec, http.StatusInternalServerError, "internal error")
				}
			}
			if rec.Header().Get("Connection") == "close" {
				markClosing(r) // see connGuard: closed first at the bound
			}
			level := requestLogLevel(r.URL.Path, rec.status())
			if !logger.Enabled(r.Context(), level) {
				return
			}
			ok, dropped := sampler.Admit(note.verified.Load())
			if !ok {
				return
			}
			attrs := []any{
				"request_id", r.Header.Get(reqctx.HeaderRequestID),
				"method", r.Method,
				"path", r.URL.Path,
				"status", rec.status(),
				"duration_ms", float64(time.Since(start).Microseconds()) / 1000,
				"bytes", rec.bytes,
				"remote", r.RemoteAddr,
			}
			if name := note.instance.Load(); name != nil {
				attrs = append(attrs, "instance", *name)
			}
			if info.Person != nil {
				attrs = append(attrs, personAttrs(info)...)
			}
			if v, ok := r.Context().Value(verdictKey{}).(authVerdict); ok && v.signIn != nil && v.signIn.Outcome != Admitted {
				attrs = append(attrs, "signin_refused", v.signIn.Outcome.String(), "reason", v.signIn.Reason)
			}
			if dropped > 0 {
				attrs = append(attrs, "unverified_lines_dropped", dropped)
			}
			logger.Log(r.Context(), level, "http request", attrs...)
		}()
		h.ServeHTTP(rec, r)
	})
}

// personAttrs name who signed in (sub, and email when the token has one)
// and the access rule that admitted them (none when no rule did).
func personAttrs(info reqctx.Info) []any {
	attrs := []any{"sub", info.Person.Subject}
	if info.Person.Email != "" {
		attrs = append(attrs, "email", info.Person.Email)
	}
	if info.Rule == "" {
		return attrs
	}
	return append(attrs, "rule", info.Rule)
}

// requestLogLevel keeps probes quiet and makes server errors stand out.
func requestLogLevel(path string, status int) slog.Level {
	switch {
	case status >= 500:
		return slog.LevelWarn
	case path == "/healthz" || path == "/readyz":
		return slog.LevelDebug
	}
	return slog.LevelInfo
}

// statusRecorder remembers the status and size of a response. Unwrap lets
// http.ResponseController reach the real writer, for flushing streams.
type statusRecorder struct {
	http.ResponseWriter
	code        int
	wroteHeader bool
	bytes       int64
}

// WriteHeader records the status before passing it on.
func (s *statusRecorder) WriteHeader(code int) {
	if !s.wroteHeader {
		s.code, s.wroteHeader = code, true
	}
	s.ResponseWriter.WriteHeader(code)
}

// Write counts the bytes written; a first Write implies status 200.
func (s *statusRecorder) Write(p []byte) (int, error) {
	if !s.wroteHeader {
		s.code, s.wroteHeader = http.StatusOK, true
	}
	n, err := s.ResponseWriter.Write(p)
	s.bytes += int64(n)
	return n, err
}

// Flush forwards to the underlying writer when it can flush.
func (s *statusRecorder) Flush() {
	_ = http.NewResponseController(s.ResponseWriter).Flush()
}

// Unwrap returns the underlying writer.
func (s *statusRecorder) Unwrap() http.ResponseWriter { return s.ResponseWriter }

// status is the recorded status; a handler that wrote nothing sent 200.
func (s *statusRecorder) status() int {
	if !s.wroteHeader {
		return http.StatusOK
	}
	return s.code
}

// limitBody refuses bodies above limit: at once with 413 when the declared
// Content-Length is too big, otherwise by failing the read past the limit
// (http.MaxBytesReader), which also tells the server to close the
// connection.
func limitBody(h http.Handler, limit int64) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ContentLength > limit {
			writeError(w, http.StatusRequestEntityTooLarge, "request body too large")
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, limit)
		h.ServeHTTP(w, r)
	})
}
