// SPDX-License-Identifier: Apache-2.0

package restclient

import (
	"context"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// An outage is a run of calls that found Dagu down: no answer (connection
// refused or reset, timeout, TLS failure other than a plain-HTTP answer)
// or a 5xx answer other than the handler answers of handlerFailures. The
// first call that gets any other answer ends it. Operators see both ends at
// warn level whatever the access log's level, with the failing route and
// the count, and /readyz shows an outage in progress.

// outageReminder is how often a long outage is logged again.
const outageReminder = time.Minute

// Outage describes an outage in progress.
type Outage struct {
	// Since is when the first failing call of the outage ended.
	Since time.Time `json:"since"`
	// Failures counts the calls that failed since then.
	Failures int64 `json:"failures"`
	// Route is the route template of the latest failing call, and Outcome
	// what ended it (5xx, timeout, network, tls).
	Route   string `json:"route"`
	Outcome string `json:"outcome"`
}

// outageTracker follows the calls' outcomes. Start and end lines are rate
// limited together (a Dagu that flaps between up and down would otherwise
// fill the log): an outage whose start line was held back has no end line
// either, and the next line that is written says how many were held back.
type outageTracker struct {
	log   *slog.Logger
	now   func() time.Time
	lines *rate.Limiter

	mu       sync.Mutex
	current  *Outage
	quiet    bool // the current outage's start line was held back
	held     int  // outages not logged since the last line
	lastLine time.Time
}

func newOutageTracker(log *slog.Logger) *outageTracker {
	// Up to 6 outage lines at once, then one every 10 s.
	return &outageTracker{log: log, now: time.Now, lines: rate.NewLimiter(rate.Every(10*time.Second), 6)}
}

// handlerFailure is a 5xx answer that is a Dagu handler's answer to the
// request, not Dagu being down: the status, of one of the routes, from a
// Dagu serving the API base.
type handlerFailure struct {
	base   APIBase
	routes map[string]bool
	status int
}

// handlerFailures are the 5xx answers that tell nothing about whether Dagu
// is up. They neither start nor extend an outage, nor end one: Dagu answered,
// but with a failure that a down Dagu could give too.
var handlerFailures = []handlerFailure{
	// Dagu 1.x (the /api/v2 releases) returns a failure to read a
	// scheduler or step log file, a missing file included, as its log
	// handlers' error, which it answers with 500; 2.0 and later answer a
	// missing file with 404.
	{base: APIv2, routes: logRoutes(), status: http.StatusInternalServerError},
}

// logRoutes are the scheduler-log and step-log routes of every run route
// family.
func logRoutes() map[string]bool {
	out := map[string]bool{}
	for _, f := range runRouteTable {
		for _, r := range []string{f.SchedulerLog, f.StepLog} {
			if r != "" {
				out[r] = true
			}
		}
	}
	return out
}

// isHandlerFailure reports whether e is one of handlerFailures for a call
// to the API base.
func isHandlerFailure(base APIBase, e *Error) bool {
	for _, f := range handlerFailures {
		if f.base == base && f.status == e.Status && f.routes[e.Route] {
			return true
		}
	}
	return false
}

// IsHandlerFailure reports whether err is one of handlerFailures for a call
// to the API base (on 1.x, a log read whose file the handler could not
// read), so callers give that fact the meaning this table gives it.
func IsHandlerFailure(base APIBase, err error) bool {
	e, ok := AsError(err)
	return ok && isHandlerFailure(base, e)
}

// callHealth says what a call to the API base tells about Dagu: down (no
// answer in time, the connection or TLS failed, or a 5xx answer, named by
// outcome), or up (any other answer). Calls that ended for the gateway's
// own reasons (the caller went away, a limit or refusal of the gateway's,
// an answer too big or unreadable, a plain-HTTP answer to an https URL:
// the URL's scheme is wrong, Dagu is not down) and handlerFailures tell
// neither.
func callHealth(base APIBase, resp *http.Response, err error) (outcome string, down, up bool) {
	if err == nil {
		return "", false, resp != nil
	}
	e, ok := AsError(err)
	switch {
	case !ok, isHandlerFailure(base, e):
		return "", false, false
	case e.Status >= 500:
		return outcomeOf(nil, err), true, false
	case e.Status != 0:
		return "", false, true
	case e.Canceled, e.Busy, e.Refused, e.KeyUnreadable, e.BodyLimit > 0, e.Undecodable, e.PlainHTTP:
		return "", false, false
	}
	return e.outcome(), true, false // timeout, tls or network
}

// observe records one finished call of route under the API base.
func (o *outageTracker) observe(route string, base APIBase, resp *http.Response, err error) {
	outcome, down, up := callHealth(base, resp, err)
	if !down && !up {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	now := o.now()
	switch {
	case down && o.current == nil:
		o.current = &Outage{Since: now, Failures: 1, Route: route, Outcome: outcome}
		o.quiet = !o.lines.AllowN(now, 1)
		if o.quiet {
			o.held++
			return
		}
		o.write("Dagu outage started: calls to Dagu fail", now, slog.String("route", route), slog.String("outcome", outcome), slog.Int64("failures", 1))
	case down:
		o.current.Failures++
		o.current.Route, o.current.Outcome = route, outcome
		if !o.quiet && now.Sub(o.lastLine) >= outageReminder {
			o.write("Dagu outage continues", now, slog.String("route", route), slog.String("outcome", outcome),
				slog.Int64("failures", o.current.Failures), slog.Time("since", o.current.Since))
		}
	case o.current != nil:
		ended := o.current
		o.current = nil
		if o.quiet {
			return
		}
		o.write("Dagu outage ended: Dagu answers again", now, slog.String("route", ended.Route), slog.String("outcome", ended.Outcome),
			slog.Int64("failures", ended.Failures), slog.Time("since", ended.Since),
			slog.Float64("duration_ms", float64(now.Sub(ended.Since).Microseconds())/1000))
	}
}

// write logs one outage line at warn level, with the count of outages held
// back since the last one.
func (o *outageTracker) write(msg string, now time.Time, attrs ...slog.Attr) {
	if o.held > 0 {
		attrs = append(attrs, slog.Int("outages_not_logged", o.held))
		o.held = 0
	}
	o.lastLine = now
	o.log.LogAttrs(context.Background(), slog.LevelWarn, msg, attrs...)
}

// state returns the outage in progress, if any.
func (o *outageTracker) state() (Outage, bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.current == nil {
		return Outage{}, false
	}
	return *o.current, true
}

// Outage returns the outage in progress: calls to Dagu have failed (no
// answer or a 5xx) since Outage.Since and none has succeeded since.
func (c *Client) Outage() (Outage, bool) { return c.doer.outage.state() }
