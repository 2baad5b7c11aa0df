// SPDX-License-Identifier: Apache-2.0

// Package trust makes the one trust decision per request of a gateway whose
// callers bring their own Dagu keys (passthrough): a caller is verified
// when Dagu accepted its key.
//
// Known keys and unknown keys travel apart. A key Dagu accepted within
// Options.KnownFor is known: it is served verified at once, its acceptance
// checked again in the background once older than Options.RecheckAfter
// (a refusal then ends it), and it never waits for, or is counted in, the
// checks of unknown keys. An unknown key is checked inline within the lane
// of unknown keys (see lane): per address, per IPv6 /64 and /48, for the
// whole process, with a reserve of the latter for addresses that asked for
// nothing lately, and a bound on the checks in flight. Refusals are cached
// too, so a refused key costs Dagu one check per Options.RefusedTTL.
package trust

import (
	"context"
	"errors"
	"sync"

	"github.com/dagu-mcp-gateway/gateway/internal/cache"
	"github.com/dagu-mcp-gateway/gateway/internal/fairshare"
	"github.com/dagu-mcp-gateway/gateway/internal/redact"
	"github.com/dagu-mcp-gateway/gateway/internal/reqctx"
)

// Verdict is what is known of a request's credential.
type Verdict int

// Verdicts. The zero value is Unchecked.
const (
	// Unchecked: no verdict. Nothing was sent, the lane of unknown keys
	// was full, or Dagu could not say (unreachable, timed out).
	Unchecked Verdict = iota
	// Verified: Dagu answered an authenticated read with the credential.
	Verified
	// Refused: Dagu refused the credential.
	Refused
	// LacksSurface: Dagu knows the key, but it lacks the rest_api surface.
	LacksSurface
)

// Trust is the verdict as the request's context carries it.
func (v Verdict) Trust() reqctx.Trust {
	switch v {
	case Verified:
		return reqctx.TrustVerified
	case Refused:
		return reqctx.TrustRefused
	case LacksSurface:
		return reqctx.TrustLacksSurface
	}
	return reqctx.TrustUnchecked
}

// Result is Dagu's answer about a credential: the verdict and, when Dagu
// can say, whose credential it is (Identity, e.g. "api_key:<uuid>" or a
// user's ID; "" when the release cannot tell).
type Result struct {
	Verdict  Verdict
	Identity string
}

// Check puts a credential to Dagu; an error means Dagu could not say.
type Check func(ctx context.Context, credential string) (Result, error)

// Decision is the trust decision of one request.
type Decision struct {
	Verdict Verdict
	// Caller names the caller for logs and is the key of its per-caller
	// limits (see callerName).
	Caller string
}

// Verifier decides and caches. It is safe for concurrent use.
type Verifier struct {
	opts Options
	// accepted holds the identity behind each accepted credential, by
	// fingerprint: fresh for RecheckAfter, then stale (still served,
	// checked again in the background) for KnownFor.
	accepted *cache.Cache[string, string]
	// refused holds the other verdicts Dagu gave, by fingerprint.
	refused *cache.Cache[string, Verdict]
	// waiting holds the fingerprints of unknown keys the lane refused a
	// check, for Options.RetryWindow: asking again, they are retries.
	waiting *cache.Cache[string, struct{}]
	lane    *lane
	// laneShare is this server's part of the lane's places in flight
	// (taken at its first check for New's Verifier, which in front of
	// several servers only owns the lane).
	laneShare func() *fairshare.Share
	metrics   *metrics
}

// New builds a Verifier.
func New(o Options) (*Verifier, error) {
	if o.Check == nil {
		return nil, errors.New("trust: no Check")
	}
	o = o.withDefaults()
	l, err := newLane(o)
	if err != nil {
		return nil, err
	}
	m, err := newMetrics(o.Registerer)
	if err != nil {
		return nil, err
	}
	v, err := withCaches(o, l, m)
	if err != nil {
		return nil, err
	}
	v.laneShare = sync.OnceValue(l.inFlight.Join)
	return v, nil
}

// Sibling returns a Verifier of another Dagu server: its verdicts, known
// keys and identities are its own (a key one server accepted is unknown to
// the other, and is checked by check, against that server only), while
// the lane of unknown keys and the metrics are v's, so one process keeps
// one bound on the checks of unknown keys however many servers it fronts.
// base is the server's lifetime (nil: v's): when it ends, so do the
// background checks of its known keys, which WaitChecks then waits for.
func (v *Verifier) Sibling(base context.Context, check Check) (*Verifier, error) {
	if check == nil {
		return nil, errors.New("trust: no Check")
	}
	o := v.opts
	o.Check = check
	if base != nil {
		o.Base = base
	}
	s, err := withCaches(o, v.lane, v.metrics)
	if err != nil {
		return nil, err
	}
	share := v.lane.inFlight.Join()
	context.AfterFunc(o.Base, share.Leave)
	s.laneShare = func() *fairshare.Share { return share }
	return s, nil
}

// WaitChecks waits for the background checks of known keys that started
// before the call (they end with Options.Base). A nil Verifier has none.
func (v *Verifier) WaitChecks() {
	if v != nil {
		v.accepted.WaitRefreshes()
	}
}

// withCaches builds a Verifier's own verdict caches around a lane and
// metrics.
func withCaches(o Options, l *lane, m *metrics) (*Verifier, error) {
	accepted, err := cache.New[string](cache.Options[string]{
		Name: "trust_accepted", MaxEntries: o.MaxCredentials, TTL: o.RecheckAfter, StaleFor: o.KnownFor,
		LoadTimeout: checkTimeout, Now: o.Now,
	})
	if err != nil {
		return nil, err
	}
	refused, err := cache.New[string](cache.Options[Verdict]{
		Name: "trust_refused", MaxEntries: o.MaxCredentials, TTL: o.RefusedTTL, Now: o.Now,
	})
	if err != nil {
		return nil, err
	}
	waiting, err := cache.New[string](cache.Options[struct{}]{
		Name: "trust_waiting", MaxEntries: o.MaxCredentials, TTL: o.RetryWindow, Now: o.Now,
	})
	if err != nil {
		return nil, err
	}
	return &Verifier{opts: o, accepted: accepted, refused: refused, waiting: waiting, lane: l, metrics: m}, nil
}

// Verify is Decide in the form of the front door's frontdoor.Verifier:
// the request's trust and the caller's name.
func (v *Verifier) Verify(ctx context.Context, credential, clientAddr string) (reqctx.Trust, string) {
	d := v.Decide(ctx, credential, clientAddr)
	return d.Verdict.Trust(), d.Caller
}

// Decide returns the decision for a request that sent credential ("" for
// none) from clientAddr (host:port or host).
func (v *Verifier) Decide(ctx context.Context, credential, clientAddr string) Decision {
	d := v.decide(ctx, credential, clientAddr)
	v.metrics.decisions.WithLabelValues(string(d.Verdict.Trust())).Inc()
	return d
}

// decide is Decide without counting.
func (v *Verifier) decide(ctx context.Context, credential, clientAddr string) Decision {
	from := originOf(clientAddr)
	if credential == "" {
		return unverified(Unchecked, from)
	}
	fingerprint := redact.Fingerprint(credential)
	if verdict, ok := v.refused.Get(fingerprint); ok {
		return unverified(verdict, from)
	}
	ctx = reqctx.WithCredential(ctx, credential)
	identity, err := v.accepted.GetOrLoadStale(ctx, v.opts.Base, fingerprint, func(ctx context.Context) (string, error) {
		return v.check(ctx, credential, fingerprint, from)
	})
	if err != nil {
		return unverified(verdictOf(err), from)
	}
	return Decision{Verdict: Verified, Caller: callerName(identity, fingerprint)}
}

// check asks Dagu, once for all concurrent requests with the credential:
// a known key at once, an unknown one within the lane. A verdict other than
// an acceptance is cached apart and ends a known key's acceptance.
func (v *Verifier) check(ctx context.Context, credential, fingerprint string, from origin) (string, error) {
	_, known := v.accepted.PeekStale(fingerprint)
	if !known {
		_, retried := v.waiting.Peek(fingerprint)
		release, ok := v.lane.admit(v.laneShare(), from, retried)
		if !ok {
			v.waiting.Add(fingerprint, struct{}{})
			v.metrics.checked(false, resultLaneFull)
			return "", errNotChecked
		}
		defer release()
		v.waiting.Remove(fingerprint)
	}
	res, err := v.opts.Check(ctx, credential)
	if err != nil {
		v.metrics.checked(known, resultNoVerdict)
		return "", errNotChecked
	}
	v.metrics.checked(known, resultOf(res.Verdict))
	if res.Verdict != Verified {
		v.refused.Add(fingerprint, res.Verdict)
		v.accepted.Remove(fingerprint)
		return "", verdictError{res.Verdict}
	}
	return res.Identity, nil
}

// errNotChecked: no verdict (the lane was full, or Dagu could not say).
var errNotChecked = errors.New("trust: the credential was not checked")

// verdictError carries a verdict other than an acceptance out of a load.
type verdictError struct{ verdict Verdict }

func (e verdictError) Error() string { return "trust: credential not accepted" }

// verdictOf is the verdict a failed load stands for.
func verdictOf(err error) Verdict {
	var ve verdictError
	if errors.As(err, &ve) {
		return ve.verdict
	}
	return Unchecked
}

// unverified is the decision for a caller whose key Dagu did not accept:
// every such caller from one origin shares one name, and so one limit.
func unverified(verdict Verdict, from origin) Decision {
	return Decision{Verdict: verdict, Caller: unverifiedPrefix + from.host}
}

// unverifiedPrefix starts the name of a caller named by its origin.
const unverifiedPrefix = "unverified:"
