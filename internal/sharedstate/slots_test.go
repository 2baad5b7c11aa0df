// SPDX-License-Identifier: Apache-2.0

package sharedstate

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/dagu-mcp-gateway/gateway/internal/sharedstate/redistest"
)

// TestEveryMultiKeyOperationStaysInOneSlot runs every operation of the
// store against a real Redis Cluster, then proves the check would catch a
// key without its hash tag: the same scripts on the same keys stripped of
// their braces are refused with CROSSSLOT.
func TestEveryMultiKeyOperationStaysInOneSlot(t *testing.T) {
	t.Parallel()
	cluster := redistest.StartCluster(t, 3, 0)
	s := openOn(t, cluster.URL())
	ctx := context.Background()

	k := Key{Kind: "run", Fingerprint: "0123456789abcdef0123456789abcdef", Parts: []string{"nightly", "run-7"}}
	if _, err := s.Load(ctx, k, time.Minute, func(context.Context) ([]byte, bool, error) {
		return []byte("details"), true, nil
	}); err != nil {
		t.Fatal(err)
	}
	s.Set(ctx, k, []byte("details"), time.Minute)
	s.Add(ctx, k, []byte("details"), time.Minute)
	if v, ok := s.Get(ctx, k); !ok || string(v) != "details" {
		t.Fatalf("Get = %q, %v", v, ok)
	}
	s.Delete(ctx, k)
	lim, _ := s.RateLimiter(10, 2)
	if _, err := lim.Allow(ctx, "alice"); err != nil {
		t.Fatal(err)
	}
	sem, _ := s.Semaphore("upstream", 2, time.Second)
	release, err := sem.Acquire(ctx, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	sem.renew()
	release()
	if errs := errorCount(s); errs != 0 {
		t.Fatalf("%v operations failed on the cluster", errs)
	}

	key, _ := s.redisKey(k)
	lock := key + suffixLock
	cc := cluster.Client()
	tagged := []struct {
		name string
		run  func(keys []string) error
	}{
		{"claim", func(keys []string) error {
			return claimScript.Run(ctx, cc, keys, 100, "token", 1000).Err()
		}},
		{"poll", func(keys []string) error { return pollScript.Run(ctx, cc, keys, 100).Err() }},
		{"publish", func(keys []string) error {
			return publishScript.Run(ctx, cc, keys, "token", "value", 1000).Err()
		}},
	}
	untagged := []string{strings.NewReplacer("{", "", "}", "").Replace(key), strings.NewReplacer("{", "", "}", "").Replace(lock)}
	if slotOf(t, cc, untagged[0]) == slotOf(t, cc, untagged[1]) {
		t.Fatal("the control keys share a slot by chance; pick another key")
	}
	for _, c := range tagged {
		if err := c.run([]string{key, lock}); err != nil && !errors.Is(err, redis.Nil) {
			t.Errorf("%s on the tagged keys: %v", c.name, err)
		}
		if err := c.run(untagged); err == nil || !strings.HasPrefix(err.Error(), "CROSSSLOT") {
			t.Errorf("%s on the keys without their tag: %v, want CROSSSLOT", c.name, err)
		}
	}
}

// errorCount is how many operations failed, whatever the reason.
func errorCount(s *Store) float64 {
	var n float64
	collect(s.metrics.errors, func(_ map[string]string, v float64) { n += v })
	return n
}

func slotOf(t *testing.T, cc *redis.ClusterClient, key string) int64 {
	t.Helper()
	n, err := cc.ClusterKeySlot(context.Background(), key).Result()
	if err != nil {
		t.Fatal(err)
	}
	return n
}
