// SPDX-License-Identifier: Apache-2.0

// Package trust makes the one trust decision per request of a gateway whose
// callers bring their own Dagu keys (passthrough): a caller is verified
// when Dagu accepted its key. Verdicts are cached by the credential's
// fingerprint for a short time, acceptances and refusals alike, so a
// working client costs Dagu one check per TTL. A credential without a
// cached verdict is put to Dagu only within a token bucket per remote
// address (per /64 network for IPv6) and within one bucket for the whole
// process: minting fresh keys buys an attacker its address's bucket and
// nothing more, and however many addresses it has, refused keys never take
// more of Dagu's capacity than the process-wide bucket. A key Dagu accepted
// the last time is checked again outside that bucket, so a flood of
// made-up keys cannot keep real ones from being verified.
package trust

import (
	"context"
	"net"
	"net/netip"
	"time"

	lru "github.com/hashicorp/golang-lru/v2"
	"golang.org/x/sync/singleflight"
	"golang.org/x/time/rate"

	"github.com/dagu-mcp-gateway/gateway/internal/redact"
	"github.com/dagu-mcp-gateway/gateway/internal/reqctx"
)

// Verdict is what is known of a request's credential.
type Verdict int

// Verdicts. The zero value is Unchecked.
const (
	// Unchecked: no verdict. Nothing was sent, the caller's address used
	// up its checks, or Dagu could not say (unreachable, timed out).
	Unchecked Verdict = iota
	// Verified: Dagu answered an authenticated read with the credential.
	Verified
	// Refused: Dagu refused the credential.
	Refused
	// LacksSurface: Dagu knows the key, but it lacks the rest_api surface.
	LacksSurface
)

// String names the verdict; it is also the value of reqctx.HeaderTrust.
func (v Verdict) String() string {
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

// Check puts a credential to Dagu: it returns Verified, Refused or
// LacksSurface, or an error when Dagu could not say.
type Check func(ctx context.Context, credential string) (Verdict, error)

// Defaults of Options.
const (
	DefaultAcceptedTTL     = time.Minute
	DefaultRefusedTTL      = 10 * time.Second
	DefaultChecksPerSecond = 1.0
	DefaultChecksBurst     = 5
	// DefaultMaxChecksPerSecond and DefaultMaxChecksBurst bound the
	// checks of the whole process, every address together.
	DefaultMaxChecksPerSecond = 20.0
	DefaultMaxChecksBurst     = 40
	DefaultMaxCredentials     = 10_000
	DefaultMaxAddresses       = 4_096
	// checkTimeout bounds one check; it does not end with the request
	// that started it, because concurrent requests share it.
	checkTimeout = 10 * time.Second
)

// Options configure a Verifier; zero fields take the defaults.
type Options struct {
	// Check verifies a credential; required.
	Check Check
	// AcceptedTTL is how long an acceptance is reused (default 1m): a
	// revoked key keeps working at most this long.
	AcceptedTTL time.Duration
	// RefusedTTL is how long a refusal is reused (default 10s).
	RefusedTTL time.Duration
	// ChecksPerSecond and ChecksBurst bound the credentials without a
	// cached verdict checked for one remote address (default 1 per second,
	// 5 at once).
	ChecksPerSecond float64
	ChecksBurst     int
	// MaxChecksPerSecond and MaxChecksBurst bound the credentials without
	// a cached verdict checked for all addresses together (default 20 per
	// second, 40 at once), so that many addresses cannot make Dagu check
	// unbounded made-up keys.
	MaxChecksPerSecond float64
	MaxChecksBurst     int
	// MaxCredentials and MaxAddresses bound the cached verdicts and the
	// per-address buckets; the least recently used go first.
	MaxCredentials int
	MaxAddresses   int
	// Now replaces the clock (default time.Now).
	Now func() time.Time
}

func (o Options) withDefaults() Options {
	if o.AcceptedTTL <= 0 {
		o.AcceptedTTL = DefaultAcceptedTTL
	}
	if o.RefusedTTL <= 0 {
		o.RefusedTTL = DefaultRefusedTTL
	}
	if o.ChecksPerSecond <= 0 {
		o.ChecksPerSecond = DefaultChecksPerSecond
	}
	if o.ChecksBurst <= 0 {
		o.ChecksBurst = DefaultChecksBurst
	}
	if o.MaxChecksPerSecond <= 0 {
		o.MaxChecksPerSecond = DefaultMaxChecksPerSecond
	}
	if o.MaxChecksBurst <= 0 {
		o.MaxChecksBurst = DefaultMaxChecksBurst
	}
	if o.MaxCredentials <= 0 {
		o.MaxCredentials = DefaultMaxCredentials
	}
	if o.MaxAddresses <= 0 {
		o.MaxAddresses = DefaultMaxAddresses
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return o
}

// verdictEntry is a cached verdict and when it stops counting.
type verdictEntry struct {
	verdict Verdict
	until   time.Time
}

// Verifier decides and caches. It is safe for concurrent use.
type Verifier struct {
	opts     Options
	verdicts *lru.Cache[string, verdictEntry]
	buckets  *lru.Cache[string, *rate.Limiter]
	all      *rate.Limiter // the process-wide bucket of checks
	flights  singleflight.Group
}

// New builds a Verifier.
func New(o Options) (*Verifier, error) {
	o = o.withDefaults()
	verdicts, err := lru.New[string, verdictEntry](o.MaxCredentials)
	if err != nil {
		return nil, err
	}
	buckets, err := lru.New[string, *rate.Limiter](o.MaxAddresses)
	if err != nil {
		return nil, err
	}
	all := rate.NewLimiter(rate.Limit(o.MaxChecksPerSecond), o.MaxChecksBurst)
	return &Verifier{opts: o, verdicts: verdicts, buckets: buckets, all: all}, nil
}

// Decision is the trust decision of one request.
type Decision struct {
	Verdict Verdict
	// Caller names the caller for logs and per-caller limits: its key's
	// whole fingerprint when Dagu accepted the key ("key:<fingerprint>":
	// a shortened one would let two accepted keys share a rate-limit
	// bucket), else
	// its remote address ("unverified:<address>"), so every unproven
	// credential from one address shares one name.
	Caller string
}

// Decide returns the decision for a request that sent credential ("" for
// none) from remoteAddr (host:port or host).
func (v *Verifier) Decide(ctx context.Context, credential, remoteAddr string) Decision {
	addr := hostOf(remoteAddr)
	unverified := func(verdict Verdict) Decision { return Decision{Verdict: verdict, Caller: "unverified:" + addr} }
	if credential == "" {
		return unverified(Unchecked)
	}
	fingerprint := redact.Fingerprint(credential)
	verdict, ok := v.cached(fingerprint)
	if !ok {
		verdict = v.check(ctx, credential, fingerprint, addr)
	}
	if verdict != Verified {
		return unverified(verdict)
	}
	return Decision{Verdict: Verified, Caller: "key:" + fingerprint}
}

func (v *Verifier) cached(fingerprint string) (Verdict, bool) {
	e, ok := v.verdicts.Get(fingerprint)
	if !ok || !v.opts.Now().Before(e.until) {
		return Unchecked, false
	}
	return e.verdict, true
}

// check asks Dagu once for all concurrent requests with the credential,
// within the address's bucket and the process-wide one (see allowCheck),
// and caches what Dagu said.
func (v *Verifier) check(ctx context.Context, credential, fingerprint, addr string) Verdict {
	out, _, _ := v.flights.Do(fingerprint, func() (any, error) {
		if verdict, ok := v.cached(fingerprint); ok {
			return verdict, nil
		}
		if !v.allowCheck(addr, v.acceptedBefore(fingerprint)) {
			return Unchecked, nil
		}
		checkCtx, cancel := context.WithTimeout(reqctx.WithCredential(context.WithoutCancel(ctx), credential), checkTimeout)
		defer cancel()
		verdict, err := v.opts.Check(checkCtx, credential)
		if err != nil {
			return Unchecked, nil
		}
		ttl := v.opts.RefusedTTL
		if verdict == Verified {
			ttl = v.opts.AcceptedTTL
		}
		v.verdicts.Add(fingerprint, verdictEntry{verdict: verdict, until: v.opts.Now().Add(ttl)})
		return verdict, nil
	})
	return out.(Verdict)
}

// allowCheck takes a check from the address's bucket, then from the
// process-wide one. In that order: an address over its own limit must not
// drain the bucket every other address shares. A key Dagu accepted the
// last time it was asked (known) skips the process-wide bucket: only keys
// that worked are exempt, so made-up keys from many addresses, which the
// ceiling bounds, cannot keep callers with real keys from being checked
// again once their acceptance expires.
func (v *Verifier) allowCheck(addr string, known bool) bool {
	now := v.opts.Now()
	if !v.bucket(bucketKey(addr)).AllowN(now, 1) {
		return false
	}
	return known || v.all.AllowN(now, 1)
}

// acceptedBefore reports whether Dagu's last verdict on the credential,
// expired or not, was an acceptance.
func (v *Verifier) acceptedBefore(fingerprint string) bool {
	e, ok := v.verdicts.Peek(fingerprint)
	return ok && e.verdict == Verified
}

// bucket is the address's token bucket of checks.
func (v *Verifier) bucket(addr string) *rate.Limiter {
	if b, ok := v.buckets.Get(addr); ok {
		return b
	}
	b := rate.NewLimiter(rate.Limit(v.opts.ChecksPerSecond), v.opts.ChecksBurst)
	if prev, ok, _ := v.buckets.PeekOrAdd(addr, b); ok {
		return prev
	}
	return b
}

// bucketKey is the key of an address's bucket of checks: the address
// itself for IPv4, its /64 network for IPv6, because one host is commonly
// given a whole /64 and could otherwise take a fresh bucket per address.
func bucketKey(addr string) string {
	ip, err := netip.ParseAddr(addr)
	if err != nil || ip.Unmap().Is4() {
		return addr
	}
	prefix, err := ip.WithZone("").Prefix(64)
	if err != nil {
		return addr
	}
	return prefix.String()
}

// hostOf drops the port of a remote address.
func hostOf(remoteAddr string) string {
	if host, _, err := net.SplitHostPort(remoteAddr); err == nil {
		return host
	}
	return remoteAddr
}
