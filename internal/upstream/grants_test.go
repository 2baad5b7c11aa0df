// SPDX-License-Identifier: Apache-2.0

package upstream

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/restclient/gen"
	"github.com/dagu-mcp-gateway/gateway/internal/sharedstate"
	"github.com/dagu-mcp-gateway/gateway/internal/sharedstate/redistest"
)

const grantFP = "caller:0123456789abcdef0123456789abcdef"

// clock is a settable clock, safe for concurrent use.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// bookFor is a grant book of a one-minute period counting its drops.
func bookFor(t *testing.T, c *clock, shared *sharedstate.Store) (*grantBook, *[]string) {
	t.Helper()
	var mu sync.Mutex
	drops := &[]string{}
	g, err := newGrantBook(time.Minute, 5*time.Minute, c.now, shared, func(cred string) { mu.Lock(); *drops = append(*drops, cred); mu.Unlock() })
	if err != nil {
		t.Fatal(err)
	}
	return g, drops
}

// TestGrantEpochIsWhatDaguSaysTheKeyMaySee: the epoch changes with the
// role and the workspace access, not with their order or anything else
// /auth/me says; a release without /auth/me has one epoch.
func TestGrantEpochIsWhatDaguSaysTheKeyMaySee(t *testing.T) {
	t.Parallel()
	all := &gen.User{Id: "api_key:1", Role: "viewer", Username: "k", WorkspaceAccess: &gen.WorkspaceAccess{All: true}}
	two := &gen.User{Id: "api_key:1", Role: "viewer", WorkspaceAccess: &gen.WorkspaceAccess{Grants: []gen.WorkspaceGrant{{Workspace: "a", Role: "viewer"}, {Workspace: "b", Role: "viewer"}}}}
	twoSwapped := &gen.User{Id: "api_key:1", Role: "viewer", Username: "renamed", WorkspaceAccess: &gen.WorkspaceAccess{Grants: []gen.WorkspaceGrant{{Workspace: "b", Role: "viewer"}, {Workspace: "a", Role: "viewer"}}}}
	one := &gen.User{Id: "api_key:1", Role: "viewer", WorkspaceAccess: &gen.WorkspaceAccess{Grants: []gen.WorkspaceGrant{{Workspace: "a", Role: "viewer"}}}}
	operator := &gen.User{Id: "api_key:1", Role: "operator", WorkspaceAccess: &gen.WorkspaceAccess{All: true}}
	if grantEpoch(two) != grantEpoch(twoSwapped) {
		t.Error("the order of the grants, or the user name, changed the epoch")
	}
	for name, other := range map[string]*gen.User{"narrowed to one workspace": one, "all workspaces": all, "another role": operator} {
		if grantEpoch(other) == grantEpoch(two) && other != two || name == "another role" && grantEpoch(operator) == grantEpoch(all) {
			t.Errorf("%s: same epoch as before", name)
		}
	}
	if legacy := grantEpoch(nil); legacy != grantEpoch(nil) || legacy == grantEpoch(all) {
		t.Error("a release without /auth/me has no one epoch of its own")
	}
}

// TestGrantBookBoundsCachedAnswers: a credential's caches answer only
// while Dagu confirmed its grant within the period; another word on the
// grant, or a distrust (403/404 for something cached), drops its entries
// and closes them until Dagu confirms again.
func TestGrantBookBoundsCachedAnswers(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c := &clock{t: time.Unix(1_000_000, 0)}
	g, drops := bookFor(t, c, nil)
	if g.usable(ctx, grantFP) {
		t.Fatal("a credential Dagu never confirmed is served from the caches")
	}
	g.confirm(ctx, grantFP, "e1")
	if !g.usable(ctx, grantFP) {
		t.Fatal("a confirmed credential is not served from the caches")
	}
	c.add(time.Minute - time.Millisecond)
	if !g.usable(ctx, grantFP) {
		t.Error("closed before the period ended")
	}
	c.add(time.Millisecond)
	if g.usable(ctx, grantFP) {
		t.Error("a confirmation older than the period still opens the caches")
	}
	g.confirm(ctx, grantFP, "e1")
	if !g.usable(ctx, grantFP) || len(*drops) != 0 {
		t.Fatalf("the same word again: usable %v, drops %v", g.usable(ctx, grantFP), *drops)
	}
	g.confirm(ctx, grantFP, "e2")
	if len(*drops) != 1 || (*drops)[0] != grantFP || g.epoch(grantFP) != "e2" {
		t.Fatalf("a narrowed grant: drops %v, epoch %q", *drops, g.epoch(grantFP))
	}
	g.distrust(ctx, grantFP)
	if g.usable(ctx, grantFP) || len(*drops) != 2 {
		t.Fatalf("after a distrust: usable %v, drops %v", g.usable(ctx, grantFP), *drops)
	}
	g.confirm(ctx, grantFP, "e2")
	if !g.usable(ctx, grantFP) {
		t.Error("a confirmation after a distrust does not open the caches")
	}
	var none *grantBook
	if !none.usable(ctx, grantFP) || none.epoch(grantFP) != "" {
		t.Error("service mode (no book) ties its caches to something")
	}
}

// TestGrantBookReachesEveryReplica: what one replica learns (a narrowed
// grant, a distrust) reaches another through the shared state within a
// poll, which drops its entries and moves its shared keys to the new
// epoch; a confirmation by one replica keeps the other's caches open.
func TestGrantBookReachesEveryReplica(t *testing.T) {
	srv := redistest.Start(t)
	ctx := context.Background()
	c := &clock{t: time.Unix(2_000_000, 0)}
	a, _ := bookFor(t, c, openShared(t, srv))
	b, bDrops := bookFor(t, c, openShared(t, srv))
	a.confirm(ctx, grantFP, "e1")
	b.confirm(ctx, grantFP, "e1")
	a.confirm(ctx, grantFP, "e2") // Dagu narrowed the key; a asked first
	if !b.usable(ctx, grantFP) || b.epoch(grantFP) != "e1" {
		t.Fatal("b polled before grantPollEvery")
	}
	c.add(grantPollEvery)
	if !b.usable(ctx, grantFP) || b.epoch(grantFP) != "e2" || len(*bDrops) != 1 {
		t.Fatalf("b after a poll: epoch %q, drops %v; want e2 and one drop", b.epoch(grantFP), *bDrops)
	}
	a.distrust(ctx, grantFP)
	c.add(grantPollEvery)
	if b.usable(ctx, grantFP) || len(*bDrops) != 2 {
		t.Fatalf("b after a's distrust: usable %v, drops %v", b.usable(ctx, grantFP), *bDrops)
	}
	c.add(30 * time.Second)
	a.confirm(ctx, grantFP, "e2")
	c.add(45 * time.Second) // b's own confirmation is 76 s old; a's is 45 s
	if !b.usable(ctx, grantFP) {
		t.Error("b does not take a's newer confirmation")
	}
}
