// SPDX-License-Identifier: Apache-2.0

package sharedstate

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/dagu-mcp-gateway/gateway/internal/sharedstate/redistest"
	"github.com/dagu-mcp-gateway/gateway/internal/testkit"
)

// These tests run real Redis Clusters and Sentinel setups (redistest):
// each Store plays one gateway replica.

// openOn opens a store on url as one replica would.
func openOn(t *testing.T, url string, mod ...func(*Options)) *Store {
	t.Helper()
	o := Options{URL: url, Scope: daguURL, Registerer: prometheus.NewRegistry(), Timeout: time.Second}
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

// readsDuring runs Loads of fresh keys on each store until stop is
// closed, counting them; a Load that fails or answers the wrong value
// fails the test.
func readsDuring(t *testing.T, stop <-chan struct{}, stores ...*Store) *atomic.Int64 {
	t.Helper()
	var n atomic.Int64
	var wg sync.WaitGroup
	for i, s := range stores {
		wg.Go(func() {
			for j := 0; ; j++ {
				select {
				case <-stop:
					return
				default:
				}
				key := Key{Kind: "run", Fingerprint: "anon", Parts: []string{"during", string(rune('a' + i)), time.Now().String()}}
				v, err := s.Load(context.Background(), key, time.Minute, func(context.Context) ([]byte, bool, error) {
					return []byte("from dagu"), true, nil
				})
				if err != nil || string(v) != "from dagu" {
					t.Errorf("a read during the failover: %q, %v", v, err)
					return
				}
				n.Add(1)
				time.Sleep(2 * time.Millisecond)
			}
		})
	}
	t.Cleanup(wg.Wait)
	return &n
}

// eventuallyShared waits until a value one store sets is read by the other.
func eventuallyShared(t *testing.T, a, b *Store, within time.Duration) {
	t.Helper()
	ctx := context.Background()
	deadline := time.Now().Add(within)
	for i := 0; ; i++ {
		key := Key{Kind: "spec", Fingerprint: "anon", Parts: []string{"after", time.Now().String()}}
		a.Set(ctx, key, []byte("shared"), time.Minute)
		if v, ok := b.Get(ctx, key); ok && string(v) == "shared" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("sharing did not resume within %s", within)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestClusterSharesWithHashTagsAndSurvivesAMasterKilled(t *testing.T) {
	t.Parallel()
	cluster := redistest.StartCluster(t, 3, 1)
	logs := &testkit.LogBuffer{}
	a := openOn(t, cluster.URL(), func(o *Options) { o.Logger = slog.New(slog.NewTextHandler(logs, nil)) })
	b := openOn(t, cluster.URL())
	ctx := context.Background()

	// Coalescing's scripts touch an entry and its lock at once: in a
	// cluster they run only if both keys are in one slot.
	key := Key{Kind: "run", Fingerprint: "0123456789abcdef0123456789abcdef", Parts: []string{"nightly", "run-1"}}
	var reads atomic.Int64
	var wg sync.WaitGroup
	for _, s := range []*Store{a, b, a, b} {
		wg.Go(func() {
			v, err := s.Load(ctx, key, time.Minute, func(context.Context) ([]byte, bool, error) {
				reads.Add(1)
				time.Sleep(100 * time.Millisecond)
				return []byte("details"), true, nil
			})
			if err != nil || string(v) != "details" {
				t.Errorf("Load = %q, %v", v, err)
			}
		})
	}
	wg.Wait()
	if reads.Load() != 1 {
		t.Fatalf("four concurrent Loads over two replicas read %d times, want 1", reads.Load())
	}
	for _, op := range []string{"coalesce_claim", "coalesce_wait", "coalesce_publish"} {
		for _, reason := range []string{reasonServer, reasonProtocol} {
			if n := testutil.ToFloat64(a.metrics.errors.WithLabelValues(op, reason)); n != 0 {
				t.Fatalf("%s failed %v times (%s): its keys span slots", op, n, reason)
			}
		}
	}
	lim, _ := a.RateLimiter(0.001, 2)
	limB, _ := b.RateLimiter(0.001, 2)
	admitted := 0
	for _, l := range []*RateLimiter{lim, limB, lim, limB} {
		if d, err := l.Allow(ctx, "alice"); err != nil {
			t.Fatal(err)
		} else if d.Allowed {
			admitted++
		}
	}
	if admitted != 2 {
		t.Fatalf("admitted %d of 4 across replicas, want the burst of 2", admitted)
	}

	victim := cluster.MasterOf(mustKey(t, a, key))
	stop := make(chan struct{})
	during := readsDuring(t, stop, a, b)
	victim.Stop()
	cluster.WaitHealthy(time.Minute)
	eventuallyShared(t, a, b, 30*time.Second)
	close(stop)
	t.Logf("%d reads while the master was killed and replaced", during.Load())
	if n := strings.Count(logs.String(), "level=WARN"); n > 1 {
		t.Fatalf("%d warnings for one outage, want at most 1:\n%s", n, logs)
	}
	// The killed master leaves the status once its slots moved.
	for deadline := time.Now().Add(30 * time.Second); ; {
		st, _ := a.Status()
		if st.Up && !strings.Contains(fmt.Sprint(st.Nodes), victim.Addr()) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the status still names the killed master %s: %+v", victim.Addr(), st)
		}
		a.Set(ctx, Key{Kind: "spec", Fingerprint: "anon", Parts: []string{time.Now().String()}}, []byte("x"), time.Minute)
		time.Sleep(100 * time.Millisecond)
	}
	t.Logf("logs:\n%s", logs)
}

func TestSentinelSharesAndResumesAfterPromotion(t *testing.T) {
	t.Parallel()
	sentinel := redistest.StartSentinel(t, 1, 3,
		redistest.WithDataPassword("data-secret-91"), redistest.WithSentinelPassword("sentinel-secret-37"))
	logs := &testkit.LogBuffer{}
	withPasswords := func(o *Options) {
		o.PasswordFile, o.SentinelPasswordFile = sentinel.DataPasswordFile, sentinel.SentinelPasswordFile
	}
	a := openOn(t, sentinel.URL(), withPasswords, func(o *Options) { o.Logger = slog.New(slog.NewTextHandler(logs, nil)) })
	b := openOn(t, sentinel.URL(), withPasswords)
	eventuallyShared(t, a, b, 10*time.Second)
	old := sentinel.CurrentMaster()
	if st, _ := a.Status(); len(st.Nodes) != 1 || st.Nodes[0].Address != old || !st.Up {
		t.Fatalf("status before the failover = %+v, want master %s up", st, old)
	}

	stop := make(chan struct{})
	during := readsDuring(t, stop, a, b)
	sentinel.ServerAt(old).Stop()
	promoted := sentinel.WaitPromotion(old, time.Minute)
	eventuallyShared(t, a, b, 30*time.Second)
	close(stop)
	t.Logf("%d reads while %s was killed and %s promoted", during.Load(), old, promoted)
	st, _ := a.Status()
	if len(st.Nodes) != 1 || st.Nodes[0].Address != promoted || !st.Up || st.LastHealthy == "" {
		t.Fatalf("status after the failover = %+v, want the promoted master %s up", st, promoted)
	}
	if n := strings.Count(logs.String(), "level=WARN"); n > 1 {
		t.Fatalf("%d warnings for one outage, want at most 1:\n%s", n, logs)
	}
	for _, secret := range []string{"data-secret-91", "sentinel-secret-37"} {
		if strings.Contains(logs.String(), secret) || strings.Contains(st.URL, secret) {
			t.Fatalf("a password reached the logs or the status:\n%s\n%+v", logs, st)
		}
	}
	t.Logf("logs:\n%s", logs)
}
