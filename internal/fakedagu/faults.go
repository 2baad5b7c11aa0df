// SPDX-License-Identifier: Apache-2.0

package fakedagu

import (
	"bytes"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Fault describes a failure to inject into the requests of one route.
// Latency is applied first; then at most one of Reset, Truncate, Oversize,
// Malformed or Status shapes the answer. A fault with only Latency delays
// the normal answer.
type Fault struct {
	// Route is a route template relative to the API base (/api/v1, or
	// /api/v2 on 1.29 and 1.17), such as "/dag-runs/{name}/{dagRunId}", or
	// "*" for every request.
	Route string
	// Times is how many requests the fault affects; 0 means all of them.
	Times int
	// Latency delays the answer; a client that goes away ends the wait.
	Latency time.Duration
	// Status answers with this status code and Body (default: a JSON
	// error body), plus a Retry-After header when RetryAfter is set.
	Status     int
	Body       string
	RetryAfter string
	// ContentType overrides the content type an injected Body gets
	// (default: application/json for a body starting with "{", else
	// text/plain).
	ContentType string
	// Reset closes the connection without answering.
	Reset bool
	// Truncate declares a Content-Length larger than the body it writes,
	// then closes the connection.
	Truncate bool
	// Oversize streams a valid JSON body of this many bytes.
	Oversize int64
	// Malformed answers 200 with a JSON content type and a body that is
	// not valid JSON.
	Malformed bool
}

// activeFault is an injected fault and how often it has fired.
type activeFault struct {
	Fault
	used int
}

// Inject adds a fault. Faults are tried in the order they were injected;
// the first one that matches a request and has uses left applies.
func (s *Server) Inject(f Fault) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = append(s.faults, &activeFault{Fault: f})
}

// ClearFaults removes every injected fault.
func (s *Server) ClearFaults() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = nil
}

// takeFault returns the fault that applies to a request of the given route
// template ("" when no route matched) and counts its use.
func (s *Server) takeFault(template string) *Fault {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, f := range s.faults {
		if f.Route != "*" && f.Route != template {
			continue
		}
		if f.Times > 0 && f.used >= f.Times {
			continue
		}
		f.used++
		out := f.Fault
		return &out
	}
	return nil
}

// applyFault shapes the answer as the fault says; it reports whether the
// request is finished (false: serve it normally).
func applyFault(w http.ResponseWriter, r *http.Request, f *Fault) bool {
	if f.Latency > 0 && !sleepUnlessGone(r, f.Latency) {
		return true
	}
	switch {
	case f.Reset:
		closeConnection(w, nil)
	case f.Truncate:
		closeConnection(w, truncatedResponse(f.Status))
	case f.Oversize > 0:
		writeOversize(w, f)
	case f.Malformed:
		writeFaultBody(w, statusOr(f.Status, http.StatusOK), `{"dags":[{"fileName":"approval_job",`, "application/json", "")
	case f.Status != 0:
		writeFaultBody(w, f.Status, f.Body, f.ContentType, f.RetryAfter)
	default:
		return false
	}
	return true
}

// sleepUnlessGone waits d; it returns false if the client went away first.
func sleepUnlessGone(r *http.Request, d time.Duration) bool {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return true
	case <-r.Context().Done():
		return false
	}
}

func statusOr(status, fallback int) int {
	if status == 0 {
		return fallback
	}
	return status
}

// writeFaultBody writes an injected answer. An empty body becomes a JSON
// error body; the content type follows the body unless given.
func writeFaultBody(w http.ResponseWriter, status int, body, contentType, retryAfter string) {
	if body == "" {
		body = fmt.Sprintf(`{"code":"%s","message":"injected fault"}`, faultCode(status))
	}
	if contentType == "" {
		contentType = "text/plain; charset=utf-8"
		if strings.HasPrefix(strings.TrimSpace(body), "{") {
			contentType = "application/json"
		}
	}
	w.Header().Set("Content-Type", contentType)
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	if retryAfter != "" {
		w.Header().Set("Retry-After", retryAfter)
	}
	w.WriteHeader(status)
	_, _ = w.Write([]byte(body))
}

func faultCode(status int) string {
	switch {
	case status == http.StatusTooManyRequests:
		return "rate_limited"
	case status == http.StatusGatewayTimeout:
		return "timeout"
	case status == http.StatusNotFound:
		return codeNotFound
	case status >= 500:
		return codeInternal
	default:
		return codeBadRequest
	}
}

// truncatedResponse is a raw HTTP answer whose body stops well short of
// the length it declares.
func truncatedResponse(status int) []byte {
	status = statusOr(status, http.StatusOK)
	body := `{"dags":[{"fileName":"approval_job"`
	return fmt.Appendf(nil, "HTTP/1.1 %d %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s",
		status, http.StatusText(status), len(body)+4096, body)
}

// closeConnection writes raw bytes (if any) straight to the connection and
// closes it. Without a hijackable connection it aborts the answer instead.
func closeConnection(w http.ResponseWriter, raw []byte) {
	conn, buf, err := http.NewResponseController(w).Hijack()
	if err != nil {
		panic(http.ErrAbortHandler)
	}
	if len(raw) > 0 {
		_, _ = buf.Write(raw)
		_ = buf.Flush()
	}
	_ = conn.Close()
}

// writeOversize streams a valid JSON object of exactly f.Oversize bytes
// without a Content-Length, stopping early if the client goes away.
func writeOversize(w http.ResponseWriter, f *Fault) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(statusOr(f.Status, http.StatusOK))
	const open, closing = `{"padding":"`, `"}`
	if f.Oversize < int64(len(open)+len(closing)) {
		_, _ = w.Write(append([]byte("{}"), bytes.Repeat([]byte(" "), int(max(f.Oversize-2, 0)))...))
		return
	}
	if _, err := w.Write([]byte(open)); err != nil {
		return
	}
	chunk := bytes.Repeat([]byte("x"), 32<<10)
	for left := f.Oversize - int64(len(open)+len(closing)); left > 0; {
		n := min(left, int64(len(chunk)))
		if _, err := w.Write(chunk[:n]); err != nil {
			return
		}
		left -= n
	}
	_, _ = w.Write([]byte(closing))
}
