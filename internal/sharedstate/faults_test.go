// SPDX-License-Identifier: Apache-2.0

package sharedstate

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"github.com/dagu-mcp-gateway/gateway/internal/sharedstate/redistest"
	"github.com/dagu-mcp-gateway/gateway/internal/testkit"
)

// These tests fail Redis in ways the failover tests do not: a master
// partitioned by CLIENT PAUSE, a master made slow by DEBUG SLEEP, a
// cluster resharding while reads run. Two stores (two replicas) with the
// gateway's default timeout read a pool of keys both share; every read
// must succeed, each store may warn once, and sharing must resume on the
// failed master's keys. What happened is logged for docs/operations.md
// (nothing timed is asserted).

// faultTimeout is the gateway's default --shared-state-timeout.
const faultTimeout = DefaultTimeout

// faultRun is two replicas reading a shared pool of keys.
type faultRun struct {
	stores []*Store
	logs   []*testkit.LogBuffer
	loads  atomic.Int64 // Loads answered
	slow   atomic.Int64 // the slowest Load, in microseconds
}

// newFaultRun opens two stores on url.
func newFaultRun(t *testing.T, url string) *faultRun {
	t.Helper()
	r := &faultRun{}
	for range 2 {
		logs := &testkit.LogBuffer{}
		r.logs = append(r.logs, logs)
		r.stores = append(r.stores, openOn(t, url, func(o *Options) {
			o.Timeout, o.Logger = faultTimeout, slog.New(slog.NewTextHandler(logs, nil))
		}))
	}
	return r
}

// faultKeys is the pool both replicas read: enough keys that every master
// (and the slots a resharding moves) holds some.
const faultKeys = 256

// read runs Loads of the pool on both stores until stop is closed; values
// live 200 ms, so they are read again and shared again all along.
func (r *faultRun) read(t *testing.T, stop <-chan struct{}) (wait func()) {
	t.Helper()
	var wg sync.WaitGroup
	for i := range 4 {
		s := r.stores[i%2]
		wg.Go(func() {
			for j := i * 37; ; j++ {
				select {
				case <-stop:
					return
				default:
				}
				key := Key{Kind: "run", Fingerprint: "anon", Parts: []string{"pool", fmt.Sprint(j % faultKeys)}}
				start := time.Now()
				v, err := s.Load(context.Background(), key, 200*time.Millisecond, func(context.Context) ([]byte, bool, error) {
					return []byte("from dagu"), true, nil
				})
				if err != nil || string(v) != "from dagu" {
					t.Errorf("a read under the fault: %q, %v", v, err)
					return
				}
				took := time.Since(start).Microseconds()
				for old := r.slow.Load(); took > old && !r.slow.CompareAndSwap(old, took); old = r.slow.Load() {
				}
				r.loads.Add(1)
				time.Sleep(time.Millisecond)
			}
		})
	}
	return wg.Wait
}

// phase reads while fault runs and reports what the reads saw: how many
// and how fast, the slowest, the share of lookups Redis did not answer
// (the reads that went on without sharing) and the failed operations.
func (r *faultRun) phase(t *testing.T, name string, fault func()) {
	t.Helper()
	r.loads.Store(0)
	r.slow.Store(0)
	beforeErrs, beforeLookups := r.counts()
	stop := make(chan struct{})
	wait := r.read(t, stop)
	start := time.Now()
	fault()
	took := time.Since(start)
	close(stop)
	wait()
	errs, lookups := r.counts()
	loads := r.loads.Load()
	unshared := lookups[resultUnavailable] - beforeLookups[resultUnavailable]
	total := 0.0
	for result, n := range lookups {
		total += n - beforeLookups[result]
	}
	var failed []string
	for what, n := range errs {
		if d := n - beforeErrs[what]; d > 0 {
			failed = append(failed, fmt.Sprintf("%s %v", what, d))
		}
	}
	slices.Sort(failed)
	t.Logf("%s (%s): %d reads (%.0f/s), slowest %s, %.1f%% of lookups unanswered, failed operations: %v",
		name, took.Round(100*time.Millisecond), loads, float64(loads)/took.Seconds(),
		time.Duration(r.slow.Load())*time.Microsecond, 100*unshared/max(total, 1), failed)
}

// counts are both stores' failed operations by op and reason, and their
// lookups by result.
func (r *faultRun) counts() (errs, lookups map[string]float64) {
	errs, lookups = map[string]float64{}, map[string]float64{}
	for _, s := range r.stores {
		collect(s.metrics.errors, func(labels map[string]string, v float64) { errs[labels["op"]+"/"+labels["reason"]] += v })
		collect(s.metrics.lookups, func(labels map[string]string, v float64) { lookups[labels["result"]] += v })
	}
	return errs, lookups
}

// collect calls f with each series of a counter vector.
func collect(c prometheus.Collector, f func(labels map[string]string, v float64)) {
	ch := make(chan prometheus.Metric, 64)
	go func() { c.Collect(ch); close(ch) }()
	for m := range ch {
		var d dto.Metric
		if m.Write(&d) != nil {
			continue
		}
		labels := map[string]string{}
		for _, l := range d.GetLabel() {
			labels[l.GetName()] = l.GetValue()
		}
		f(labels, d.GetCounter().GetValue())
	}
}

// check fails unless each store warned at most once and sharing works
// again: on master's keys in a cluster ("" for any key).
func (r *faultRun) check(t *testing.T, master string) {
	t.Helper()
	a, b := r.stores[0], r.stores[1]
	deadline := time.Now().Add(30 * time.Second)
	ctx := context.Background()
	for i := 0; ; i++ {
		k := Key{Kind: "spec", Fingerprint: "anon", Parts: []string{"check", fmt.Sprint(i)}}
		if master != "" && masterOf(a, k) != master {
			continue
		}
		a.Set(ctx, k, []byte("shared"), time.Minute)
		if v, ok := b.Get(ctx, k); ok && string(v) == "shared" {
			break
		}
		if time.Now().After(deadline) {
			sa, _ := a.Status()
			sb, _ := b.Status()
			t.Fatalf("sharing did not resume within 30 s: %+v %+v\n%s\n%s", sa, sb, r.logs[0], r.logs[1])
		}
		time.Sleep(50 * time.Millisecond)
	}
	for i, logs := range r.logs {
		if n := strings.Count(logs.String(), "level=WARN"); n > 1 {
			t.Errorf("store %d warned %d times, want at most once:\n%s", i, n, logs)
		}
		t.Logf("store %d logged:\n%s", i, logs)
	}
}

// masterOf is the master that serves k's slot, as s sees the cluster.
func masterOf(s *Store, k Key) string {
	key, _ := s.redisKey(k)
	n, err := s.conn.cluster.MasterForKey(context.Background(), key)
	if err != nil {
		return ""
	}
	return n.Options().Addr
}

func TestReadsGoOnWhileAClusterMasterIsPartitionedByClientPause(t *testing.T) {
	t.Parallel()
	cluster := redistest.StartCluster(t, 3, 0)
	r := newFaultRun(t, cluster.URL())
	r.phase(t, "healthy", func() { time.Sleep(time.Second) })
	victim := cluster.Nodes[0]
	r.phase(t, "CLIENT PAUSE 3000 ALL on one master", func() {
		if err := victim.Client().Do(context.Background(), "CLIENT", "PAUSE", "3000", "ALL").Err(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(3 * time.Second)
	})
	r.phase(t, "after the pause", func() { time.Sleep(time.Second) })
	r.check(t, victim.Addr())
}

func TestReadsGoOnWhileASentinelMasterIsPartitionedByClientPause(t *testing.T) {
	t.Parallel()
	sentinel := redistest.StartSentinel(t, 1, 3)
	r := newFaultRun(t, sentinel.URL())
	r.phase(t, "healthy", func() { time.Sleep(time.Second) })
	old := sentinel.CurrentMaster()
	// Longer than the sentinels' down-after (1 s): they fail the master
	// over while it is paused, and it comes back as a replica.
	r.phase(t, "CLIENT PAUSE 4000 ALL on the master", func() {
		if err := sentinel.ServerAt(old).Client().Do(context.Background(), "CLIENT", "PAUSE", "4000", "ALL").Err(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(4 * time.Second)
	})
	r.phase(t, "after the pause", func() { time.Sleep(2 * time.Second) })
	r.check(t, "")
	t.Logf("master before %s, after %s", old, sentinel.CurrentMaster())
}

func TestReadsGoOnWhileAClusterMasterIsSlow(t *testing.T) {
	t.Parallel()
	cluster := redistest.StartCluster(t, 3, 0, redistest.WithArgs("--enable-debug-command", "local"))
	r := newFaultRun(t, cluster.URL())
	r.phase(t, "healthy", func() { time.Sleep(time.Second) })
	victim := cluster.Nodes[1]
	// Busy 250 ms of every 300 for 3 s: slower than the timeout, yet never
	// silent long enough for the cluster to fail it.
	r.phase(t, "DEBUG SLEEP 0.25 every 300 ms on one master", func() {
		c := victim.Client()
		for end := time.Now().Add(3 * time.Second); time.Now().Before(end); {
			if err := c.Do(context.Background(), "DEBUG", "SLEEP", "0.25").Err(); err != nil {
				t.Fatal(err)
			}
			time.Sleep(50 * time.Millisecond)
		}
	})
	r.phase(t, "after", func() { time.Sleep(time.Second) })
	r.check(t, victim.Addr())
}

func TestReadsGoOnWhileAClusterReshards(t *testing.T) {
	t.Parallel()
	cluster := redistest.StartCluster(t, 3, 0)
	r := newFaultRun(t, cluster.URL())
	r.phase(t, "healthy", func() { time.Sleep(time.Second) })
	from, to := cluster.Nodes[0], cluster.Nodes[2]
	r.phase(t, "redis-cli --cluster reshard of 2000 slots", func() { cluster.Reshard(from, to, 2000) })
	r.phase(t, "after", func() { time.Sleep(time.Second) })
	cluster.WaitHealthy(time.Minute)
	r.check(t, to.Addr())
}

// TestAClaimThatTimedOutLeavesNoLock: a server busy past the timeout still
// runs the claim it received once it wakes; the lock it takes then is
// released in the background, not left to its LockTTL (during which every
// replica that missed the entry would wait CoalesceWait for a value nobody
// reads).
func TestAClaimThatTimedOutLeavesNoLock(t *testing.T) {
	t.Parallel()
	srv := redistest.Start(t, redistest.WithArgs("--enable-debug-command", "local"))
	s := openOn(t, srv.URL(), func(o *Options) { o.Timeout, o.LockTTL = faultTimeout, time.Minute })
	ctx := context.Background()
	k := Key{Kind: "run", Fingerprint: "anon", Parts: []string{"late"}}
	key, _ := s.redisKey(k)
	// A pooled connection, and the claim script cached (a timed-out EVALSHA
	// of an unknown script would take no lock).
	if _, err := s.Load(ctx, Key{Kind: "run", Fingerprint: "anon", Parts: []string{"warm"}}, time.Minute,
		func(context.Context) ([]byte, bool, error) { return []byte("x"), true, nil }); err != nil {
		t.Fatal(err)
	}
	slept := make(chan error, 1)
	go func() { slept <- srv.Client().Do(ctx, "DEBUG", "SLEEP", "0.5").Err() }()
	time.Sleep(100 * time.Millisecond) // the server sleeps now
	v, err := s.Load(ctx, k, 0, func(context.Context) ([]byte, bool, error) { return []byte("direct"), false, nil })
	if err != nil || string(v) != "direct" {
		t.Fatalf("Load while the server slept = %q, %v", v, err)
	}
	if err := <-slept; err != nil {
		t.Fatal(err)
	}
	c := srv.Client()
	for deadline := time.Now().Add(20 * time.Second); ; {
		n, err := c.Exists(ctx, key+suffixLock).Result()
		if err == nil && n == 0 {
			return
		}
		if time.Now().After(deadline) {
			ttl, _ := c.PTTL(ctx, key+suffixLock).Result()
			t.Fatalf("the late claim's lock is still there %s after the server woke (%s left): exists %d, %v", 20*time.Second, ttl, n, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
