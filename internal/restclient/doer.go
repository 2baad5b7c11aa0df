// SPDX-License-Identifier: Apache-2.0

package restclient

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/fairshare"
	"github.com/dagu-mcp-gateway/gateway/internal/reqctx"
	"github.com/go-resty/resty/v2"
)

// doer is the generated client's HttpRequestDoer. Every request passes the
// guard, gets the per-call deadline and credentials, and is executed by a
// resty request, so resty's retry loop (with our condition and wait policy)
// does the retrying. Non-2xx answers come back as *Error values; a 2xx body
// is capped and releases the call's context when closed.
type doer struct {
	resty   *resty.Client
	guard   *guard
	key     KeySource
	timeout time.Duration
	limit   int64
	metrics *metrics
	cap     *concurrencyCap
	share   *fairshare.Share // this client's part of cap
	// bodies is the byte budget of 2xx bodies being read.
	bodies *bodyBudget
	// passthrough sends each caller's own credential.
	passthrough bool
	// outage follows whether Dagu is down.
	outage *outageTracker
	// identity asks Dagu not to compress its answers (see Compression).
	identity bool
}

func newDoer(cfg Config, g *guard, hc *http.Client, m *metrics) *doer {
	policy := &retryPolicy{baseWait: cfg.RetryBaseWait, now: time.Now, onRetry: m.retried}
	rc := resty.NewWithClient(hc).
		SetLogger(restyLogger{cfg.Logger}).
		SetDisableWarn(true).
		SetHeader("User-Agent", cfg.UserAgent).
		SetRetryCount(cfg.Retries).
		SetRetryWaitTime(0).
		SetRetryMaxWaitTime(25 * time.Hour).
		SetRetryAfter(policy.wait).
		AddRetryCondition(policy.shouldRetry)
	// Re-check the request resty actually built, on every attempt: what the
	// guard approved is what goes on the wire.
	rc.SetPreRequestHook(func(_ *resty.Client, r *http.Request) error {
		_, err := g.check(r)
		return err
	})
	limits := cfg.Limits
	if limits == nil {
		limits = NewLimits(cfg)
	}
	return &doer{resty: rc, guard: g, key: cfg.Key, timeout: cfg.Timeout, limit: cfg.MaxResponseBytes, metrics: m,
		cap: limits.cap, share: limits.cap.pool.Join(), bodies: limits.bodies, passthrough: cfg.Passthrough,
		outage: newOutageTracker(cfg.Logger)}
}

// Do sends one guarded GET.
func (d *doer) Do(req *http.Request) (*http.Response, error) {
	route, err := d.guard.check(req)
	if err != nil {
		d.metrics.observe(route, outcomeOf(nil, err), 0)
		return nil, err
	}
	key, err := d.credential(req.Context())
	if err != nil {
		kerr := &Error{Route: route, KeyUnreadable: true, Excerpt: clip(err.Error()), Cause: err}
		d.metrics.observe(route, outcomeOf(nil, kerr), 0)
		return nil, kerr
	}
	ctx, cancel := context.WithTimeout(context.WithValue(req.Context(), routeKey{}, route), d.timeout)
	release, err := d.cap.acquire(ctx, d.share, route)
	if err != nil {
		cancel()
		d.metrics.observe(route, outcomeOf(nil, err), 0)
		return nil, err
	}
	defer release()
	start := time.Now()
	res, err := d.execute(ctx, req, key)
	resp, err := d.finish(ctx, cancel, route, res, err)
	d.metrics.observe(route, outcomeOf(resp, err), time.Since(start))
	d.outage.observe(route, d.guard.apiBase(req.URL), resp, err)
	return resp, err
}

// credential is the key a request is sent with: the one the front door
// chose for it (reqctx.WithCredential: a passthrough caller's own, or the
// key of a signed-in person's access rule), else none in passthrough mode
// (the gateway's own calls, such as readiness and capability probes, which
// Dagu then answers as for anyone), else the configured key (re-read when
// its file changes).
func (d *doer) credential(ctx context.Context) (string, error) {
	if key, ok := reqctx.Credential(ctx); ok {
		return key, nil
	}
	if d.passthrough {
		return "", nil
	}
	return d.key.Key()
}

func (d *doer) execute(ctx context.Context, req *http.Request, key string) (*resty.Response, error) {
	r := d.resty.R().SetContext(ctx).SetDoNotParseResponse(true)
	for name, values := range req.Header {
		for _, v := range values {
			r.Header.Add(name, v)
		}
	}
	if key != "" {
		r.SetAuthToken(key)
	}
	if d.identity {
		// Set by hand, so the transport neither asks for gzip nor
		// inflates anything.
		r.SetHeader("Accept-Encoding", "identity")
	}
	if info, ok := reqctx.From(ctx); ok && info.RequestID != "" {
		r.SetHeader(reqctx.HeaderRequestID, info.RequestID)
	}
	reqctx.CountUpstream(ctx)
	res, err := r.Execute(http.MethodGet, req.URL.String())
	if errors.Is(err, errRetryPastDeadline) && res != nil && res.RawResponse != nil {
		// Stopped before a wait that would cross the deadline: report the
		// last answer itself.
		err = nil
	}
	return res, err
}

// finish turns resty's outcome into what the generated client expects: a
// 2xx *http.Response with a capped body, or an *Error.
func (d *doer) finish(ctx context.Context, cancel context.CancelFunc, route string, res *resty.Response, err error) (*http.Response, error) {
	if err != nil {
		if res != nil && res.RawResponse != nil {
			_ = res.RawResponse.Body.Close()
		}
		defer cancel()
		return nil, transportError(ctx, route, err)
	}
	raw := res.RawResponse
	if raw.StatusCode/100 != 2 {
		defer cancel()
		bufferBody(raw)
		body, _ := readCapped(ctx, raw.Body, route, errorBodyLimit)
		return nil, httpError(route, raw.StatusCode, raw.Header.Get("Content-Type"), body)
	}
	return d.admitBody(ctx, cancel, route, raw)
}

// admitBody caps a 2xx body and puts it under the body budget. A declared
// length over the cap is refused before a byte is read; a declared length
// within it is reserved whole (waiting within the call's deadline).
func (d *doer) admitBody(ctx context.Context, cancel context.CancelFunc, route string, raw *http.Response) (*http.Response, error) {
	declared := raw.ContentLength
	if declared > d.limit {
		_ = raw.Body.Close()
		cancel()
		return nil, &Error{Route: route, BodyLimit: d.limit,
			Excerpt: fmt.Sprintf("response body of %d bytes declared, over the cap of %d", declared, d.limit)}
	}
	if declared >= 0 {
		if err := d.bodies.reserveDeclared(ctx, route, declared); err != nil {
			_ = raw.Body.Close()
			cancel()
			return nil, err
		}
	}
	raw.Body = newCappedBody(ctx, raw.Body, route, d.limit, cancel, d.bodies, declared)
	return raw, nil
}

// outcomeOf labels a call for the metrics: the status class of an answer,
// or the fact that ended the call (Error.outcome).
func outcomeOf(resp *http.Response, err error) string {
	if e, ok := AsError(err); ok {
		if e.Status != 0 {
			return statusClass(e.Status)
		}
		return e.outcome()
	}
	if resp != nil {
		return statusClass(resp.StatusCode)
	}
	return "unknown"
}

// statusClasses are the labels of the usual status classes, so that no
// call formats one.
var statusClasses = [...]string{1: "1xx", 2: "2xx", 3: "3xx", 4: "4xx", 5: "5xx"}

// statusClass is "2xx" for 200 to 299, and so on.
func statusClass(status int) string {
	if c := status / 100; c > 0 && c < len(statusClasses) {
		return statusClasses[c]
	}
	return fmt.Sprintf("%dxx", status/100)
}

// restyLogger sends resty's own messages to slog at debug level. resty logs
// URLs and errors, never headers, so the key does not reach it.
type restyLogger struct{ l *slog.Logger }

// Errorf logs at debug level: every resty error is also returned to us.
func (r restyLogger) Errorf(format string, v ...any) { r.debug(format, v...) }

// Warnf logs at debug level (resty warns once per failed attempt).
func (r restyLogger) Warnf(format string, v ...any) { r.debug(format, v...) }

// Debugf logs at debug level.
func (r restyLogger) Debugf(format string, v ...any) { r.debug(format, v...) }

func (r restyLogger) debug(format string, v ...any) {
	r.l.Debug("resty: " + fmt.Sprintf(format, v...))
}
