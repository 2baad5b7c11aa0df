// SPDX-License-Identifier: Apache-2.0

package upstream

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/cache"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient/gen"
	"github.com/dagu-mcp-gateway/gateway/internal/sharedstate"
)

// Bounds of the grant book.
const (
	// grantEntries bounds the credentials whose grants are remembered, as
	// package trust bounds the keys it knows.
	grantEntries = 10_000
	// grantPollEvery is how often, at most, a replica reads another
	// replica's word on a credential it serves from its caches.
	grantPollEvery = time.Second
	// kindGrant is the shared entry holding a credential's latest grant.
	kindGrant = "grant"
	// seenEntries bounds the points (DAGs, workspaces, wiki pages) the
	// book remembers Dagu showed a credential.
	seenEntries = 1 << 14
)

// grant is what Dagu last said a credential may see, as one replica holds
// it: the grant's epoch (a hash of the role and workspaces /auth/me
// named, or of a newer word another replica shared) and when Dagu said so.
type grant struct {
	Epoch     string    `json:"e"`
	Confirmed time.Time `json:"c"`
	// polled is when the shared entry was last read (never shared).
	polled time.Time
}

// grantBook ties every cached answer a passthrough credential reads to
// what Dagu last said that credential may see (issue 38). A credential's
// cached answers are served only while Dagu confirmed its grant within
// the re-check period (package trust's, which asks again on use); past it
// the caches are passed by until Dagu confirms again. When a confirmation
// names another grant, or Dagu refuses (403) or does not find (404)
// something the caches may hold for the credential (a run the run cache
// holds, or a point Dagu showed it: see refused), the credential's entries
// are dropped
// here, and the new epoch is shared: the other replicas read it within
// grantPollEvery of serving the credential from their caches, drop theirs,
// and key the shared level by it, so the old shared entries are never
// found again. A nil *grantBook (service mode) ties nothing.
type grantBook struct {
	period time.Duration
	now    func() time.Time
	byCred *cache.Cache[string, grant]
	// seen holds the points Dagu showed each credential, for as long as
	// the caches may hold an answer about them.
	seen   *cache.Cache[seenKey, struct{}]
	shared *sharedstate.Store // nil: no shared level
	// drop removes every local entry of a credential.
	drop func(credential string)
	mu   sync.Mutex // orders a credential's epoch changes
}

// newGrantBook returns the book of a re-check period (0: none, nil).
// held is the longest a cached answer lives (the longest cache lifetime):
// how long a point Dagu showed a credential is remembered.
func newGrantBook(period, held time.Duration, now func() time.Time, shared *sharedstate.Store, drop func(string)) (*grantBook, error) {
	if period <= 0 {
		return nil, nil
	}
	c, err := cache.New[string](cache.Options[grant]{MaxEntries: grantEntries, TTL: grantEntryTTL, Now: now})
	if err != nil {
		return nil, err
	}
	seen, err := cache.New[seenKey](cache.Options[struct{}]{MaxEntries: seenEntries, TTL: max(held, time.Second), Now: now})
	if err != nil {
		return nil, err
	}
	return &grantBook{period: period, now: now, byCred: c, seen: seen, shared: shared, drop: drop}, nil
}

// point is something a read names that Dagu may stop showing a
// credential when it narrows the credential's grant: a DAG (by name), a
// named workspace, a wiki page. The zero point names nothing.
type point struct {
	kind pointKind
	name string
}

type pointKind uint8

const (
	pointDAG pointKind = iota + 1
	pointWorkspace
	pointWikiPage
)

func dagPoint(name string) point { return point{kind: pointDAG, name: name} }

// workspacePoint is a named workspace's point; "all" (every workspace the
// key may see) and "" name none.
func workspacePoint(ws string) point {
	if namedWorkspace(ws) == "" {
		return point{}
	}
	return point{kind: pointWorkspace, name: ws}
}

func wikiPagePoint(workspace, path string) point {
	return point{kind: pointWikiPage, name: workspace + "\x00" + path}
}

// seenKey is a point Dagu showed a credential.
type seenKey struct {
	credential string
	point      point
}

// saw records that Dagu just showed the credential the points (its
// answers about them may now be cached). The zero point is skipped.
func (g *grantBook) saw(credential string, points ...point) {
	if g == nil {
		return
	}
	for _, p := range points {
		if p != (point{}) {
			g.seen.Add(seenKey{credential: credential, point: p}, struct{}{})
		}
	}
}

// refused handles a read of p that failed with err: when err is Dagu's
// 403 or handler 404 (narrowsGrant) for a point Dagu showed the
// credential before, what it may see has narrowed, and the credential
// is distrusted (its cached answers dropped on every replica). It reports
// whether it distrusted. A 404 for a point never shown (a name mistyped)
// is not a narrowing and drops nothing.
func (g *grantBook) refused(ctx context.Context, credential string, p point, err error) bool {
	if g == nil || p == (point{}) || !narrowsGrant(err) {
		return false
	}
	if _, shown := g.seen.Peek(seenKey{credential: credential, point: p}); !shown {
		return false
	}
	g.distrust(ctx, credential)
	return true
}

// grantEpoch is the epoch of what /auth/me said: the role and the
// workspace access, in an order of their own. A release without /auth/me
// (1.17, which has no workspaces) has one epoch, "": its acceptance of the
// key is the whole check.
func grantEpoch(user *gen.User) string {
	if user == nil {
		return ""
	}
	var b strings.Builder
	b.WriteString(user.Role)
	if wa := user.WorkspaceAccess; wa != nil {
		grants := make([]string, 0, len(wa.Grants))
		for _, g := range wa.Grants {
			grants = append(grants, g.Workspace+"="+g.Role)
		}
		slices.Sort(grants)
		b.WriteString("|all=")
		b.WriteString(map[bool]string{true: "1", false: "0"}[wa.All])
		b.WriteString("|" + strings.Join(grants, ","))
	}
	sum := sha256.Sum256([]byte(b.String()))
	return hex.EncodeToString(sum[:8])
}

// confirm records that Dagu, just now, said the credential may see what
// epoch names. Another epoch than the one held drops the credential's
// entries; either way the word is shared.
func (g *grantBook) confirm(ctx context.Context, credential, epoch string) {
	if g == nil {
		return
	}
	g.adopt(ctx, credential, grant{Epoch: epoch, Confirmed: g.now()}, true)
}

// distrust records that Dagu refused or did not find something the caches
// hold for the credential: its entries are dropped, here and (through a
// new epoch nobody confirmed) on the other replicas, and its caches are
// passed by until Dagu confirms its grant again.
func (g *grantBook) distrust(ctx context.Context, credential string) {
	if g == nil {
		return
	}
	sum := sha256.Sum256([]byte(credential + g.now().String()))
	g.adopt(ctx, credential, grant{Epoch: "x" + hex.EncodeToString(sum[:8])}, true)
}

// adopt makes next the credential's grant, dropping its entries when the
// epoch changes, and shares it when asked to.
func (g *grantBook) adopt(ctx context.Context, credential string, next grant, share bool) {
	g.mu.Lock()
	held, known := g.byCred.Peek(credential)
	next.polled = g.now()
	g.byCred.Add(credential, next)
	g.mu.Unlock()
	if known && held.Epoch != next.Epoch {
		g.drop(credential)
		// nothing about those points is cached any more
		g.seen.RemoveIf(func(k seenKey) bool { return k.credential == credential })
	}
	if share && g.shared != nil {
		if raw, err := json.Marshal(next); err == nil {
			g.shared.Set(ctx, grantKey(credential), raw, grantEntryTTL)
		}
	}
}

// grantEntryTTL is how long a shared grant outlives its last word: as long
// as package trust knows a key.
const grantEntryTTL = 12 * time.Hour

// grantKey is the shared entry of a credential's grant, a cache entry
// of its own kind (in its own hash-tagged slot, as every key is).
func grantKey(credential string) sharedstate.Key {
	return sharedstate.Key{Kind: kindGrant, Fingerprint: credential}
}

// usable reports whether the caches may answer the credential: Dagu
// confirmed its grant within the period. At most once per grantPollEvery
// it first reads the shared word, which another replica may have changed.
func (g *grantBook) usable(ctx context.Context, credential string) bool {
	if g == nil {
		return true
	}
	held, ok := g.byCred.Peek(credential)
	if !ok {
		return false
	}
	now := g.now()
	if g.shared != nil && now.Sub(held.polled) >= grantPollEvery {
		held = g.poll(ctx, credential, held)
	}
	return !held.Confirmed.IsZero() && now.Sub(held.Confirmed) < g.period
}

// poll reads the shared word on the credential and adopts it when it is
// newer than the one held (a newer confirmation, or a distrust).
func (g *grantBook) poll(ctx context.Context, credential string, held grant) grant {
	held.polled = g.now()
	g.byCred.Add(credential, held)
	raw, ok := g.shared.Get(ctx, grantKey(credential))
	var word grant
	if !ok || json.Unmarshal(raw, &word) != nil || word.Epoch == held.Epoch && !word.Confirmed.After(held.Confirmed) {
		return held
	}
	if word.Epoch == held.Epoch || word.Confirmed.IsZero() || !word.Confirmed.Before(held.Confirmed) {
		g.adopt(ctx, credential, word, false)
		word.polled = held.polled
		return word
	}
	return held
}

// epoch is the credential's grant epoch as held here ("" when none).
func (g *grantBook) epoch(credential string) string {
	if g == nil {
		return ""
	}
	held, _ := g.byCred.Peek(credential)
	return held.Epoch
}
