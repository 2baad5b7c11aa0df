// SPDX-License-Identifier: Apache-2.0

package trust

import (
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/dagu-mcp-gateway/gateway/internal/cache"
	"github.com/dagu-mcp-gateway/gateway/internal/fairshare"
)

// lane admits the checks of unknown keys: a key Dagu never accepted, or
// not within Options.KnownFor. A check must get a token of its address's
// bucket (IPv6: its /64's), of its /48's bucket (IPv6), and of the
// process's bucket, and a place among the checks in flight. Once the
// process's bucket is spent, an origin that asked for fewer than
// Options.NewcomerTries checks within Options.NewcomerWindow may still
// take one from the newcomers' reserve: however many checks a flood of
// made-up keys asks for, a new address is served before the addresses that
// already had their tries, so that only a flood from ever new addresses
// (more than the reserve's rate times the window over the tries) can
// keep it out. The places in flight are shared fairly by the Dagu servers
// of one process (fairshare): one server's checks may take at most
// Options.MaxChecksInFlight less a reserve of min(half, servers − 1).
type lane struct {
	opts     Options
	mu       sync.Mutex // makes an admission, over several buckets, one step
	origins  *cache.Cache[string, *originState]
	all      *rate.Limiter
	reserve  *rate.Limiter
	inFlight *fairshare.Pool
}

// checksReservedPerOther is how many places in flight each other Dagu
// server keeps out of one server's reach (within half of them).
const checksReservedPerOther = 1

// originState is one address's or network's bucket, its bucket of
// retries, and how many checks it asked for since it was first seen
// (within the window).
type originState struct {
	bucket  *rate.Limiter
	retries *rate.Limiter
	asks    int
}

func newLane(o Options) (*lane, error) {
	origins, err := cache.New[string](cache.Options[*originState]{
		Name: "trust_origins", MaxEntries: o.MaxAddresses, TTL: o.NewcomerWindow, Now: o.Now,
	})
	if err != nil {
		return nil, err
	}
	return &lane{
		opts:     o,
		origins:  origins,
		all:      rate.NewLimiter(rate.Limit(o.MaxChecksPerSecond), o.MaxChecksBurst),
		reserve:  rate.NewLimiter(rate.Limit(o.NewcomerChecksPerSecond), o.NewcomerChecksBurst),
		inFlight: fairshare.NewPool(o.MaxChecksInFlight, checksReservedPerOther),
	}, nil
}

// admit reports whether a check of an unknown key from o, for the server
// of share, may be made now;
// when it may, release must be called once the check is over. retried
// says the key asked before and was refused a check: it may then take
// its origin's bucket of retries once the origin's own bucket is spent, so
// that behind one address a client that asks again is not kept out by
// made-up keys that each ask once. Tokens an origin spent before a later
// bucket refused stay spent: an origin over its own limit must not come
// back sooner for having hit another.
func (l *lane) admit(share *fairshare.Share, o origin, retried bool) (release func(), ok bool) {
	release, ok = share.TryAcquire()
	if !ok {
		return nil, false
	}
	if !l.take(o, retried) {
		release()
		return nil, false
	}
	return release, true
}

// take takes the tokens of one check, or none past the first bucket that
// refuses.
func (l *lane) take(o origin, retried bool) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.opts.Now()
	if !l.state(o.host, l.opts.ChecksPerSecond, l.opts.ChecksBurst).allow(now, retried) {
		return false
	}
	if o.net != "" && !l.state(o.net, l.opts.NetChecksPerSecond, l.opts.NetChecksBurst).allow(now, retried) {
		return false
	}
	share := l.state(o.share(), l.opts.ChecksPerSecond, l.opts.ChecksBurst)
	share.asks++
	newcomer := share.asks <= l.opts.NewcomerTries
	return l.all.AllowN(now, 1) || newcomer && l.reserve.AllowN(now, 1)
}

// state is the origin's state, made (with a full bucket) when it has none;
// it is forgotten Options.NewcomerWindow after it was made.
func (l *lane) state(key string, perSecond float64, burst int) *originState {
	if s, ok := l.origins.Get(key); ok {
		return s
	}
	s := &originState{
		bucket:  rate.NewLimiter(rate.Limit(perSecond), burst),
		retries: rate.NewLimiter(rate.Limit(l.opts.RetryChecksPerSecond), l.opts.RetryChecksBurst),
	}
	l.origins.Add(key, s)
	return s
}

// allow takes a token of the origin's bucket or, for a retried key, of its
// retries.
func (s *originState) allow(now time.Time, retried bool) bool {
	return s.bucket.AllowN(now, 1) || retried && s.retries.AllowN(now, 1)
}
