// SPDX-License-Identifier: Apache-2.0

package restclient

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/go-resty/resty/v2"
)

// retryStatuses are the answers worth another attempt.
var retryStatuses = map[int]bool{
	http.StatusTooManyRequests:    true,
	http.StatusBadGateway:         true,
	http.StatusServiceUnavailable: true,
	http.StatusGatewayTimeout:     true,
}

// maxBackoff caps one computed backoff step (Retry-After may ask for more;
// the call's deadline still bounds it).
const maxBackoff = 5 * time.Second

// errRetryPastDeadline stops the retry loop when the next wait would end
// after the call's deadline; the last failure is then returned instead.
var errRetryPastDeadline = errors.New("next retry would pass the call deadline")

// errorBodyLimit bounds error bodies kept in memory across retries.
const errorBodyLimit = 64 << 10

// retryPolicy decides whether and when resty tries a GET again.
type retryPolicy struct {
	baseWait time.Duration
	now      func() time.Time
	onRetry  func(route string)
}

// shouldRetry is resty's retry condition. It retries connect failures,
// resets and early EOFs, and the statuses in retryStatuses. Before a retry
// the old answer's body is buffered (and its connection released), so the
// last answer can still be reported if no retry follows.
func (p *retryPolicy) shouldRetry(res *resty.Response, err error) bool {
	if err != nil {
		return isRetryableNetError(err)
	}
	if res == nil || res.RawResponse == nil || !retryStatuses[res.RawResponse.StatusCode] {
		return false
	}
	bufferBody(res.RawResponse)
	return true
}

// wait is resty's RetryAfter callback: exponential backoff with jitter, or
// the server's Retry-After when given, refused when it would cross the
// deadline of the request's context.
func (p *retryPolicy) wait(_ *resty.Client, res *resty.Response) (time.Duration, error) {
	d := p.backoff(res.Request.Attempt)
	if res.RawResponse != nil {
		if ra, ok := parseRetryAfter(res.RawResponse.Header.Get("Retry-After"), p.now()); ok {
			d = ra
		}
	}
	if deadline, ok := res.Request.Context().Deadline(); ok && p.now().Add(d).After(deadline) {
		return 0, errRetryPastDeadline
	}
	if p.onRetry != nil {
		p.onRetry(routeOfRequest(res.Request))
	}
	// resty treats 0 as "use your own backoff"; one nanosecond means now.
	return max(d, time.Nanosecond), nil
}

// backoff returns base*2^(attempt-1), capped, with "equal jitter": half
// fixed, half random, so concurrent callers spread out.
func (p *retryPolicy) backoff(attempt int) time.Duration {
	d := p.baseWait
	for i := 1; i < attempt && d < maxBackoff; i++ {
		d *= 2
	}
	d = min(d, maxBackoff)
	half := d / 2
	return half + rand.N(half+1)
}

// maxRetryAfter caps a Retry-After value; the call's deadline is the real
// bound, this only keeps the arithmetic sane.
const maxRetryAfter = 24 * time.Hour

// parseRetryAfter reads a Retry-After value: delay seconds or an HTTP date.
func parseRetryAfter(v string, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if secs, err := strconv.ParseInt(v, 10, 64); err == nil {
		if secs < 0 {
			return 0, false
		}
		return time.Duration(min(secs, int64(maxRetryAfter/time.Second))) * time.Second, true
	}
	if at, err := http.ParseTime(v); err == nil {
		return min(max(at.Sub(now), 0), maxRetryAfter), true
	}
	return 0, false
}

// isRetryableNetError reports connect failures, connection resets and
// unexpected EOFs: the request either never reached Dagu or got no answer,
// and a GET is safe to repeat. Timeouts, TLS and guard errors are final.
func isRetryableNetError(err error) bool {
	if _, ok := AsError(err); ok {
		return false
	}
	if isTLSError(err) || isTimeout(err) {
		return false
	}
	return errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, syscall.ECONNABORTED) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, io.EOF) || errors.Is(err, syscall.EPIPE)
}

// bufferBody replaces an error answer's body with an in-memory copy (at most
// errorBodyLimit bytes) and closes the original.
func bufferBody(res *http.Response) {
	if _, done := res.Body.(*bufferedBody); done {
		return
	}
	data, _ := io.ReadAll(io.LimitReader(res.Body, errorBodyLimit))
	_ = res.Body.Close()
	res.Body = &bufferedBody{Reader: bytes.NewReader(data)}
}

type bufferedBody struct{ *bytes.Reader }

func (*bufferedBody) Close() error { return nil }

// routeKey carries the route template of a call in its context, for the
// retry metrics.
type routeKey struct{}

func routeOfRequest(r *resty.Request) string {
	route, _ := r.Context().Value(routeKey{}).(string)
	return route
}
