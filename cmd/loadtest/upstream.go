// SPDX-License-Identifier: Apache-2.0

package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"slices"
	"sync"
	"time"
)

// Bounds of the delaying proxy.
const (
	// maxSpans is how many requests the proxy remembers between two takes;
	// one read makes a few dozen at most, so more are counted, not kept.
	maxSpans = 4096
	// maxUpstreamDelay bounds -upstream-delay.
	maxUpstreamDelay = 10 * time.Second
	// readyWait bounds the wait for the gateway behind the proxy to be ready.
	readyWait = 60 * time.Second
	// settleQuiet is how long the proxy must see no request before the
	// first measured read: a gateway just started detects Dagu's
	// capabilities in the background, and a read made meanwhile takes the
	// paths of an undetected server.
	settleQuiet = time.Second
)

// span is one request the proxy forwarded: when it arrived and when the
// last part of its answer began to be written.
type span struct{ start, end time.Time }

// delayProxy is a reverse proxy on a loopback address in front of Dagu. It
// holds every request for a fixed delay before forwarding it, as a network
// between the gateway and Dagu would, and records each request's span, so
// the sequential round trips of a read can be counted (see chainDepth).
type delayProxy struct {
	delay time.Duration
	srv   *http.Server
	url   string // where the gateway under test must send its Dagu requests

	mu       sync.Mutex
	spans    []span
	lost     int       // spans not kept since the last take (more than maxSpans)
	inFlight int       // requests being held or forwarded
	active   time.Time // when a request last arrived or ended
}

// startDelayProxy listens on listen (a loopback address) and forwards to
// upstream after delay.
func startDelayProxy(upstream, listen string, delay time.Duration) (*delayProxy, error) {
	target, err := url.Parse(upstream)
	if err != nil {
		return nil, fmt.Errorf("-upstream: %w", err)
	}
	ln, err := net.Listen("tcp", listen)
	if err != nil {
		return nil, fmt.Errorf("-upstream-listen: %w", err)
	}
	p := &delayProxy{delay: delay, url: "http://" + ln.Addr().String()}
	forward := &httputil.ReverseProxy{
		Rewrite: func(r *httputil.ProxyRequest) { r.SetURL(target) },
		// No proxy from the environment: the traffic stays on loopback.
		Transport: &http.Transport{MaxIdleConnsPerHost: 64, IdleConnTimeout: 30 * time.Second},
	}
	p.srv = &http.Server{Handler: p.hold(forward), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = p.srv.Serve(ln) }()
	return p, nil
}

// hold delays each request, forwards it and records its span.
func (p *delayProxy) hold(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := p.arrived()
		defer p.ended()
		timer := time.NewTimer(p.delay)
		defer timer.Stop()
		select {
		case <-timer.C:
		case <-r.Context().Done():
			return
		}
		tw := &timedWriter{ResponseWriter: w}
		next.ServeHTTP(tw, r)
		end := tw.last
		if end.IsZero() {
			end = time.Now()
		}
		p.record(span{start: start, end: end})
	})
}

// timedWriter notes when the answer's last part began to be written: the
// gateway cannot have the whole answer, and so cannot send a request that
// depends on it, before then. (The handler returns, and the buffered answer
// is flushed, only later.)
type timedWriter struct {
	http.ResponseWriter
	last time.Time
}

func (w *timedWriter) WriteHeader(status int) {
	w.last = time.Now()
	w.ResponseWriter.WriteHeader(status)
}

func (w *timedWriter) Write(b []byte) (int, error) {
	w.last = time.Now()
	return w.ResponseWriter.Write(b)
}

// Unwrap lets the reverse proxy flush through the wrapper.
func (w *timedWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// arrived notes a request's arrival and returns its time.
func (p *delayProxy) arrived() time.Time {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.inFlight++
	p.active = time.Now()
	return p.active
}

// ended notes that a request's handling ended.
func (p *delayProxy) ended() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.inFlight--
	p.active = time.Now()
}

// quietFor reports whether no request was in flight, or arrived or ended,
// for d.
func (p *delayProxy) quietFor(d time.Duration) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.inFlight == 0 && time.Since(p.active) >= d
}

// settle waits, at most readyWait, until the proxy has seen no request
// for settleQuiet: the gateway's start-up detection is over.
func (p *delayProxy) settle(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, readyWait)
	defer cancel()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for !p.quietFor(settleQuiet) {
		select {
		case <-ctx.Done():
			return errors.New("the gateway kept calling Dagu for " + readyWait.String() + " after it was ready")
		case <-tick.C:
		}
	}
	return nil
}

func (p *delayProxy) record(s span) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.spans) >= maxSpans {
		p.lost++
		return
	}
	p.spans = append(p.spans, s)
}

// take returns the spans recorded since the last take, and how many more
// were not kept, and forgets them.
func (p *delayProxy) take() ([]span, int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	spans, lost := p.spans, p.lost
	p.spans, p.lost = nil, 0
	return spans, lost
}

// close stops the proxy.
func (p *delayProxy) close() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = p.srv.Shutdown(ctx)
}

// chainDepth is the number of sequential round trips the spans show: the
// longest chain of requests each sent after the previous one's answer was
// written. Requests in flight together count once; a request that had to
// wait for another's answer counts again. Taking the requests in the order
// they were answered, and each that starts after the chain's last answer,
// gives the longest chain.
func chainDepth(spans []span) int {
	byEnd := slices.Clone(spans)
	slices.SortFunc(byEnd, func(a, b span) int { return a.end.Compare(b.end) })
	depth := 0
	var last time.Time
	for _, s := range byEnd {
		if depth == 0 || !s.start.Before(last) {
			depth++
			last = s.end
		}
	}
	return depth
}

// waitReady polls the gateway's /readyz (beside the MCP endpoint) until it
// answers 200, so that the gateway, started after the proxy, has detected
// Dagu's capabilities through it before the first measured read.
func waitReady(ctx context.Context, mcpURL string, hc *http.Client) error {
	u, err := url.Parse(mcpURL)
	if err != nil {
		return err
	}
	ready := u.Scheme + "://" + u.Host + "/readyz"
	ctx, cancel := context.WithTimeout(ctx, readyWait)
	defer cancel()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		if readyOnce(ctx, hc, ready) {
			return nil
		}
		select {
		case <-ctx.Done():
			return errors.New("the gateway at " + ready + " was not ready within " + readyWait.String() + "; start it with its Dagu URL set to the proxy's")
		case <-tick.C:
		}
	}
}

func readyOnce(ctx context.Context, hc *http.Client, ready string) bool {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, ready, nil)
	if err != nil {
		return false
	}
	res, err := hc.Do(req)
	if err != nil {
		return false
	}
	_ = res.Body.Close()
	return res.StatusCode == http.StatusOK
}
