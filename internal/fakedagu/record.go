// SPDX-License-Identifier: Apache-2.0

package fakedagu

import (
	"net/http"
	"sync"
)

// Request is one request the fake received.
type Request struct {
	Method string
	// Path is the escaped request path, exactly as sent.
	Path     string
	RawQuery string
	// Header holds the request headers, with the Authorization value
	// replaced by "present" so keys never reach test output.
	Header http.Header
	// Status is the answer's status code; 0 while the request is still
	// being served or when the connection was reset.
	Status int
}

// maxLoggedRequests bounds the request log: a long-running demo under load
// keeps only the newest requests, so the log never grows without bound.
const maxLoggedRequests = 10000

// requestLog is the list of received requests (the newest
// maxLoggedRequests).
type requestLog struct {
	mu       sync.Mutex
	requests []*Request
}

// add records a request as it arrives and returns its entry.
func (l *requestLog) add(r *http.Request) *Request {
	header := r.Header.Clone()
	if header == nil {
		header = http.Header{}
	}
	if header.Get("Authorization") != "" {
		header.Set("Authorization", "present")
	} else {
		header.Set("Authorization", "absent")
	}
	entry := &Request{Method: r.Method, Path: r.URL.EscapedPath(), RawQuery: r.URL.RawQuery, Header: header}
	l.mu.Lock()
	if len(l.requests) >= maxLoggedRequests {
		// Drop the older half at once, so trimming costs O(1) per request
		// on average.
		kept := copy(l.requests, l.requests[len(l.requests)-maxLoggedRequests/2:])
		clear(l.requests[kept:])
		l.requests = l.requests[:kept]
	}
	l.requests = append(l.requests, entry)
	l.mu.Unlock()
	return entry
}

// finish stores the status the request was answered with.
func (l *requestLog) finish(entry *Request, status int) {
	l.mu.Lock()
	entry.Status = status
	l.mu.Unlock()
}

func (l *requestLog) snapshot() []Request {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]Request, len(l.requests))
	for i, e := range l.requests {
		out[i] = *e
		out[i].Header = e.Header.Clone()
	}
	return out
}

func (l *requestLog) reset() {
	l.mu.Lock()
	l.requests = nil
	l.mu.Unlock()
}

// statusWriter remembers the status a handler wrote.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *statusWriter) Write(p []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(p)
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
