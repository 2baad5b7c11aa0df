// SPDX-License-Identifier: Apache-2.0

package sharedstate

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/redis/go-redis/v9"

	"github.com/dagu-mcp-gateway/gateway/internal/sharedstate/redistest"
	"github.com/dagu-mcp-gateway/gateway/internal/testkit"
)

// These tests run against a real redis-server (see redistest): each
// Store plays one gateway replica.

const daguURL = "http://dagu.test:8080"

// checkKeysHide fails the test when a key in Redis contains one of words;
// what names what the words are.
func checkKeysHide(t *testing.T, srv *redistest.Server, what string, words ...string) {
	t.Helper()
	keys, err := srv.Client().Keys(context.Background(), "*").Result()
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range keys {
		for _, w := range words {
			if strings.Contains(k, w) {
				t.Fatalf("Redis key %q carries %s", k, what)
			}
		}
	}
}

// openReplica opens a store on srv as one replica would.
func openReplica(t *testing.T, srv *redistest.Server, mod ...func(*Options)) *Store {
	t.Helper()
	o := Options{URL: srv.URL(), Scope: daguURL, Registerer: prometheus.NewRegistry(), Timeout: time.Second}
	for _, m := range mod {
		m(&o)
	}
	s, err := Open(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

func TestRedisCacheIsSharedAcrossReplicasAndIsolatedByCredential(t *testing.T) {
	t.Parallel()
	srv := redistest.Start(t)
	a, b := openReplica(t, srv), openReplica(t, srv)
	ctx := context.Background()
	alice := Key{Kind: "run", Fingerprint: "0123456789abcdef0123456789abcdef", Parts: []string{"nightly", "run-1"}}
	bob := Key{Kind: "run", Fingerprint: "fedcba9876543210fedcba9876543210", Parts: []string{"nightly", "run-1"}}
	a.Set(ctx, alice, []byte(`{"status":"succeeded"}`), time.Minute)
	if v, ok := b.Get(ctx, alice); !ok || string(v) != `{"status":"succeeded"}` {
		t.Fatalf("replica b Get = %q, %v; want replica a's value", v, ok)
	}
	if _, ok := b.Get(ctx, bob); ok {
		t.Fatal("another credential must never be served what one credential read")
	}
	elsewhere := openReplica(t, srv, func(o *Options) { o.Scope = "http://other-dagu:8080" })
	if _, ok := elsewhere.Get(ctx, alice); ok {
		t.Fatal("a gateway in front of another Dagu must not see this one's entries")
	}
	if got := testutil.ToFloat64(b.metrics.lookups.WithLabelValues("run", resultHit)); got != 1 {
		t.Fatalf("hits = %v, want 1", got)
	}
	a.Add(ctx, alice, []byte("write-back"), time.Hour)
	if v, _ := b.Get(ctx, alice); string(v) != `{"status":"succeeded"}` {
		t.Fatalf("Add replaced a stored value with %q", v)
	}
	if ttl, _ := srv.Client().PTTL(ctx, mustKey(t, a, alice)).Result(); ttl > time.Minute {
		t.Fatalf("Add extended a stored value's life to %s", ttl)
	}
	b.Delete(ctx, alice)
	if _, ok := a.Get(ctx, alice); ok {
		t.Fatal("a deleted value must be gone for every replica")
	}
	checkKeysHide(t, srv, "the local key as text", "nightly", "run-1")
}

func TestRedisCacheBoundsAndExpiry(t *testing.T) {
	t.Parallel()
	srv := redistest.Start(t)
	s := openReplica(t, srv, func(o *Options) { o.MaxValueBytes = 64 << 10 })
	raw := srv.Client()
	ctx := context.Background()
	key := func(name string) Key { return Key{Kind: "spec", Fingerprint: "anon", Parts: []string{name}} }
	redisKey := func(name string) string { k, _ := s.redisKey(key(name)); return k }

	s.Set(ctx, key("big"), bytes.Repeat([]byte("x"), 64<<10+1), time.Minute)
	if n, _ := raw.Exists(ctx, redisKey("big")).Result(); n != 0 {
		t.Fatal("a value over MaxValueBytes must not be stored")
	}
	compressible := bytes.Repeat([]byte(`{"step":"extract","status":"succeeded"}`), 1000)
	s.Set(ctx, key("compressible"), compressible, 90*time.Second)
	if n, _ := raw.StrLen(ctx, redisKey("compressible")).Result(); n >= int64(len(compressible))/4 {
		t.Fatalf("a repetitive value of %d bytes took %d bytes in Redis", len(compressible), n)
	}
	if ttl, _ := raw.PTTL(ctx, redisKey("compressible")).Result(); ttl <= 0 || ttl > 90*time.Second {
		t.Fatalf("PTTL = %s, want within (0, 90s]", ttl)
	}
	if v, ok := s.Get(ctx, key("compressible")); !ok || !bytes.Equal(v, compressible) {
		t.Fatal("the compressed value must read back as stored")
	}
	// Something else wrote under our key: garbage, or a value far larger
	// than the bound. Both are misses, and the large one is not read whole.
	raw.Set(ctx, redisKey("garbage"), "not ours", time.Minute)
	raw.Set(ctx, redisKey("huge"), strings.Repeat("y", 4<<20), time.Minute)
	for _, name := range []string{"garbage", "huge"} {
		if _, ok := s.Get(ctx, key(name)); ok {
			t.Fatalf("%s under our key must read as a miss", name)
		}
	}
	if got := testutil.ToFloat64(s.metrics.lookups.WithLabelValues("spec", resultInvalid)); got != 2 {
		t.Fatalf("invalid lookups = %v, want 2", got)
	}
	if testutil.ToFloat64(s.metrics.up) != 1 {
		t.Fatal("a value that is not ours says nothing about Redis's health")
	}
}

func TestRedisRateLimitIsClusterWide(t *testing.T) {
	t.Parallel()
	srv := redistest.Start(t)
	// One token per ~17 minutes: only the burst is admitted during the test,
	// however slow the machine.
	const perSecond, burst = 0.001, 5
	var limiters []*RateLimiter
	for range 3 {
		l, err := openReplica(t, srv).RateLimiter(perSecond, burst)
		if err != nil {
			t.Fatal(err)
		}
		limiters = append(limiters, l)
	}
	ctx := context.Background()
	admitted := map[string]int{}
	for i := range 30 {
		for _, caller := range []string{"alice", "bob"} {
			d, err := limiters[i%3].Allow(ctx, caller)
			if err != nil {
				t.Fatal(err)
			}
			if d.Allowed {
				admitted[caller]++
			} else if d.RetryAfter <= 0 {
				t.Fatalf("a refusal must say how long to wait, got %s", d.RetryAfter)
			}
		}
	}
	if admitted["alice"] != burst || admitted["bob"] != burst {
		t.Fatalf("admitted %v over 3 replicas; want %d per caller cluster-wide", admitted, burst)
	}
	checkKeysHide(t, srv, "the caller's name", "alice", "bob")
}

func TestRedisSemaphoreBudgetAndLeaseExpiry(t *testing.T) {
	t.Parallel()
	srv := redistest.Start(t)
	ctx := context.Background()
	sem := func(s *Store) *Semaphore {
		m, err := s.Semaphore("upstream", 3, time.Second)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	crashed := openReplica(t, srv)
	a, b := sem(crashed), sem(openReplica(t, srv))
	for range 2 {
		if _, err := a.Acquire(ctx, 0); err != nil {
			t.Fatalf("acquire on the first replica: %v", err)
		}
	}
	release, err := b.Acquire(ctx, 0)
	if err != nil {
		t.Fatalf("third slot: %v", err)
	}
	if _, err := b.Acquire(ctx, 0); !errors.Is(err, ErrBusy) {
		t.Fatalf("a fourth slot of three: %v, want ErrBusy", err)
	}
	release()
	release() // a second release is harmless
	release, err = b.Acquire(ctx, 0)
	if err != nil {
		t.Fatalf("a released slot must be free again: %v", err)
	}
	// The first replica dies holding two slots: it stops renewing and never
	// releases them. Their leases end and the budget comes back.
	_ = crashed.Close()
	var got []func()
	for range 2 {
		r, err := b.Acquire(ctx, 30*time.Second)
		if err != nil {
			t.Fatalf("slots of a dead replica must come back when their leases end: %v", err)
		}
		got = append(got, r)
	}
	for _, r := range append(got, release) {
		r()
	}
}

func TestRedisSemaphoreRenewsHeldLeases(t *testing.T) {
	t.Parallel()
	srv := redistest.Start(t)
	ctx := context.Background()
	s := openReplica(t, srv)
	m, err := s.Semaphore("upstream", 2, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	release, err := m.Acquire(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	raw := srv.Client()
	ids, _ := raw.ZRangeWithScores(ctx, m.key, 0, -1).Result()
	if len(ids) != 1 {
		t.Fatalf("%d leases, want 1", len(ids))
	}
	// Pretend the lease is about to end, then renew.
	raw.ZAdd(ctx, m.key, redisZ(1, ids[0].Member))
	m.renew()
	after, _ := raw.ZScore(ctx, m.key, ids[0].Member.(string)).Result()
	// Renewal sets the lease a full lease from now: no earlier than where
	// Acquire set it (equal when both ran in the same millisecond, which
	// "later than" made a flake).
	if after < ids[0].Score {
		t.Fatalf("renewal left the lease at %v (was %v)", after, ids[0].Score)
	}
}

func TestRedisLoadCoalescesAcrossReplicas(t *testing.T) {
	t.Parallel()
	srv := redistest.Start(t)
	// Followers wait as long as it takes: the outcome must not depend on
	// how fast this machine is.
	long := func(o *Options) { o.CoalesceWait = time.Minute; o.LockTTL = time.Minute }
	leader, follower := openReplica(t, srv, long), openReplica(t, srv, long)
	ctx := context.Background()
	key := Key{Kind: "run", Fingerprint: "anon", Parts: []string{"r"}}

	var leaderReads atomic.Int32
	started, proceed := make(chan struct{}), make(chan struct{})
	var wg sync.WaitGroup
	var leaderValue []byte
	wg.Go(func() {
		leaderValue, _ = leader.Load(ctx, key, time.Minute, func(context.Context) ([]byte, bool, error) {
			leaderReads.Add(1)
			close(started)
			<-proceed
			return []byte("from dagu"), true, nil
		})
	})
	<-started // the leader holds the lock
	var followerValue []byte
	wg.Go(func() {
		followerValue, _ = follower.Load(ctx, key, time.Minute, func(context.Context) ([]byte, bool, error) {
			t.Error("the follower read directly although the leader was reading")
			return nil, false, nil
		})
	})
	close(proceed)
	wg.Wait()
	if string(leaderValue) != "from dagu" || string(followerValue) != "from dagu" || leaderReads.Load() != 1 {
		t.Fatalf("leader %q, follower %q, reads %d", leaderValue, followerValue, leaderReads.Load())
	}
	v, err := follower.Load(ctx, key, time.Minute, func(context.Context) ([]byte, bool, error) {
		t.Error("a shared value must be served without a read")
		return nil, false, nil
	})
	if err != nil || string(v) != "from dagu" {
		t.Fatalf("second Load = %q, %v", v, err)
	}
}

func TestRedisLoadReadsDirectlyWhenNothingComes(t *testing.T) {
	t.Parallel()
	srv := redistest.Start(t)
	ctx := context.Background()
	s := openReplica(t, srv, func(o *Options) { o.CoalesceWait = 50 * time.Millisecond })
	key := Key{Kind: "run", Fingerprint: "anon", Parts: []string{"r"}}
	lock := mustKey(t, s, key) + suffixLock

	// A leader that died holding the lock: the wait ends, the read is direct.
	srv.Client().Set(ctx, lock, "dead-leader", time.Minute)
	v, err := s.Load(ctx, key, time.Minute, func(context.Context) ([]byte, bool, error) { return []byte("direct"), false, nil })
	if err != nil || string(v) != "direct" {
		t.Fatalf("Load = %q, %v", v, err)
	}
	// A caller that stops waiting gets its context's error, not a read.
	patient := openReplica(t, srv, func(o *Options) { o.CoalesceWait = time.Minute })
	short, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	_, err = patient.Load(short, key, time.Minute, func(context.Context) ([]byte, bool, error) {
		t.Error("a caller that stopped waiting must not read")
		return nil, false, nil
	})
	cancel()
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Load after the caller's deadline = %v, want its context's error", err)
	}
	srv.Client().Del(ctx, lock)

	// A value that may not be kept is not shared: every Load reads.
	reads := 0
	for range 2 {
		if _, err := s.Load(ctx, key, time.Minute, func(context.Context) ([]byte, bool, error) {
			reads++
			return []byte("running"), false, nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	if reads != 2 {
		t.Fatalf("%d reads of a value that may not be kept, want 2", reads)
	}
	// A failed read is the caller's, and is not shared either.
	boom := errors.New("dagu said no")
	if _, err := s.Load(ctx, key, time.Minute, func(context.Context) ([]byte, bool, error) { return nil, true, boom }); !errors.Is(err, boom) {
		t.Fatalf("Load error = %v, want the read's", err)
	}
	if _, ok := s.Get(ctx, key); ok {
		t.Fatal("nothing may be shared after reads that were not kept or failed")
	}
}

func TestRedisPasswordFileAndProbe(t *testing.T) {
	t.Parallel()
	srv := redistest.Start(t, redistest.WithPassword("correct-horse"))
	dir := t.TempDir()
	good, bad := filepath.Join(dir, "good"), filepath.Join(dir, "bad")
	_ = os.WriteFile(good, []byte("correct-horse\n"), 0o600)
	_ = os.WriteFile(bad, []byte("not-the-password-0042"), 0o600)
	ctx := context.Background()

	s := openReplica(t, srv, func(o *Options) { o.PasswordFile = good })
	info, err := s.Probe(ctx)
	if err != nil || info.Server != "redis" || info.Version == "" || info.Version == "unknown" {
		t.Fatalf("Probe = %+v, %v", info, err)
	}
	denied := openReplica(t, srv, func(o *Options) { o.PasswordFile = bad })
	_, err = denied.Probe(ctx)
	if !errors.Is(err, ErrUnavailable) {
		t.Fatalf("a wrong password: %v, want ErrUnavailable", err)
	}
	if strings.Contains(err.Error(), "not-the-password-0042") {
		t.Fatalf("the error carries the password: %v", err)
	}
	if got := testutil.ToFloat64(denied.metrics.errors.WithLabelValues("probe", reasonServer)); got != 1 {
		t.Fatalf("errors{probe,server} = %v, want 1 (Redis refused the password)", got)
	}
}

func TestRedisStoppedMidUseFallsBackAndResumes(t *testing.T) {
	t.Parallel()
	srv := redistest.Start(t)
	logs := &testkit.LogBuffer{}
	s := openReplica(t, srv, func(o *Options) {
		o.Timeout = 200 * time.Millisecond
		o.MaxPause = 100 * time.Millisecond
		o.Logger = slog.New(slog.NewTextHandler(logs, nil))
	})
	ctx := context.Background()
	key := Key{Kind: "list", Fingerprint: "anon", Parts: []string{"q"}}
	s.Set(ctx, key, []byte("v1"), time.Minute)
	if _, ok := s.Get(ctx, key); !ok {
		t.Fatal("no hit before the stop")
	}
	srv.Stop()
	reads := 0
	for range 50 {
		v, err := s.Load(ctx, key, time.Minute, func(context.Context) ([]byte, bool, error) {
			reads++
			return []byte("direct"), true, nil
		})
		if err != nil || string(v) != "direct" {
			t.Fatalf("with Redis stopped, Load = %q, %v; every read must still succeed", v, err)
		}
	}
	if reads != 50 || testutil.ToFloat64(s.metrics.up) != 0 {
		t.Fatalf("reads %d, up %v; want 50 direct reads and up 0", reads, testutil.ToFloat64(s.metrics.up))
	}
	if n := strings.Count(logs.String(), "shared state unavailable"); n != 1 {
		t.Fatalf("%d unavailable lines, want 1:\n%s", n, logs)
	}
	srv.Restart()
	deadline := time.Now().Add(30 * time.Second)
	for {
		s.Set(ctx, key, []byte("v2"), time.Minute)
		if v, ok := s.Get(ctx, key); ok && string(v) == "v2" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("sharing did not resume after Redis came back")
		}
		time.Sleep(50 * time.Millisecond)
	}
	if testutil.ToFloat64(s.metrics.up) != 1 || !strings.Contains(logs.String(), "available again") {
		t.Fatalf("after the restart up = %v; logs:\n%s", testutil.ToFloat64(s.metrics.up), logs)
	}
}

func redisZ(score float64, member any) redis.Z { return redis.Z{Score: score, Member: member} }

func mustKey(t *testing.T, s *Store, k Key) string {
	t.Helper()
	key, err := s.redisKey(k)
	if err != nil {
		t.Fatal(err)
	}
	return key
}

// TestRedisScopedViewsShareConnectionsNotKeys: each instance's view keeps
// its entries apart, a replica's view of the same scope shares them, and
// closing a view leaves the store's connections open.
func TestRedisScopedViewsShareConnectionsNotKeys(t *testing.T) {
	t.Parallel()
	srv := redistest.Start(t)
	a, b := openReplica(t, srv), openReplica(t, srv)
	ctx := context.Background()
	key := Key{Kind: "run", Fingerprint: "0123456789abcdef0123456789abcdef", Parts: []string{"nightly", "run-1"}}
	prodA, prodB, staging := a.Scoped("instance prod"), b.Scoped("instance prod"), a.Scoped("instance staging")
	prodA.Set(ctx, key, []byte("prod's"), time.Minute)
	if v, ok := prodB.Get(ctx, key); !ok || string(v) != "prod's" {
		t.Fatalf("another replica's view of prod: %q %v", v, ok)
	}
	for name, s := range map[string]*Store{"staging": staging, "the store itself": a} {
		if _, ok := s.Get(ctx, key); ok {
			t.Fatalf("%s sees prod's entry", name)
		}
	}
	if err := staging.Close(); err != nil {
		t.Fatal(err)
	}
	if v, ok := prodA.Get(ctx, key); !ok || string(v) != "prod's" {
		t.Fatal("closing a view closed the store's connections")
	}
	if (*Store)(nil).Scoped("x") != nil {
		t.Fatal("a nil store's view is not nil")
	}
}
