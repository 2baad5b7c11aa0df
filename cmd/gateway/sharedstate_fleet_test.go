// SPDX-License-Identifier: Apache-2.0

//go:build sharedbench

package main

// The fleet measurement of issue 23 (BENCHMARKS.md, "Shared state"): three
// gateways sharing one real redis-server in front of one fake Dagu that
// counts the requests it receives, loaded by concurrent MCP clients spread
// round-robin over the gateways. It prints figures and asserts nothing
// timed; it is not part of `go test ./...`:
//
//	go test -tags sharedbench -run TestSharedStateFleet -v -timeout 20m ./cmd/gateway/
//
// FLEET_SECONDS sets the phases' length (default 30), FLEET_PATHS=1 lists
// the requests Dagu received, FLEET_SHARED_TIMEOUT sets
// --shared-state-timeout for the topologies (one Redis, a cluster,
// Sentinel); "failover" kills a cluster master and the Sentinel master
// 1 s into a phase and prints the reads of each second.

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu/fakedagutest"
	"github.com/dagu-mcp-gateway/gateway/internal/sharedstate/redistest"
)

// fleetDuration is each load phase's length; FLEET_SECONDS overrides it.
func fleetDuration() time.Duration {
	if s, err := strconv.Atoi(os.Getenv("FLEET_SECONDS")); err == nil && s > 0 {
		return time.Duration(s) * time.Second
	}
	return 30 * time.Second
}

// countingDagu is the fake Dagu behind a request counter.
type countingDagu struct {
	requests atomic.Int64
	next     http.Handler
	mu       sync.Mutex
	paths    map[string]int
}

func (c *countingDagu) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	c.requests.Add(1)
	if os.Getenv("FLEET_PATHS") != "" {
		c.mu.Lock()
		if c.paths == nil {
			c.paths = map[string]int{}
		}
		c.paths[r.URL.Path+"?"+r.URL.RawQuery]++
		c.mu.Unlock()
	}
	c.next.ServeHTTP(w, r)
}

func startCountingDagu(t *testing.T) (*countingDagu, string) {
	// Rebased to an hour ago: the runs list's default window is the last
	// seven days, and the recordings' own dates fall out of it.
	c := &countingDagu{next: fakedagu.New(fakedagu.Options{APIKey: fakedagutest.APIKey, Rebase: time.Now().Add(-time.Hour)})}
	srv := httptest.NewServer(c)
	t.Cleanup(srv.Close)
	return c, srv.URL
}

// startFleet serves n gateways in front of daguURL with the extra flags and
// returns their MCP endpoints.
func startFleet(t *testing.T, daguURL string, n int, extra ...string) []string {
	var endpoints []string
	for range n {
		args := append([]string{"--dagu-url", daguURL, "--dagu-api-key", fakedagutest.APIKey, "--log-level", "error"}, extra...)
		cfg, err := resolveFrom(t, args, nil)
		if err != nil {
			t.Fatal(err)
		}
		endpoints = append(endpoints, serveConfig(t, cfg)+"/mcp")
	}
	time.Sleep(2 * time.Second) // let each gateway's background capability detection finish
	return endpoints
}

// fleetResult is one load phase's outcome.
type fleetResult struct {
	reads, failed, refused int64
	upstream               int64
	elapsed                time.Duration
	perSecond              [maxFleetSeconds]atomic.Int64 // reads answered in each second of the phase
}

// maxFleetSeconds bounds the per-second counts of a phase.
const maxFleetSeconds = 600

// load runs clients MCP clients, client i on endpoint i%len(endpoints),
// each cycling through reads (starting at its own offset) for d, and
// counts the Dagu requests made meanwhile.
func load(t *testing.T, dagu *countingDagu, endpoints []string, clients int, reads []string, d time.Duration) *fleetResult {
	var sessions []*mcp.ClientSession
	for i := range clients {
		sessions = append(sessions, connectHTTP(t, endpoints[i%len(endpoints)], ""))
	}
	res := &fleetResult{}
	before := dagu.requests.Load()
	start := time.Now()
	deadline := start.Add(d)
	var wg sync.WaitGroup
	for i, cs := range sessions {
		wg.Go(func() {
			for n := i; time.Now().Before(deadline); n++ {
				ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				out, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "dagu_read", Arguments: json.RawMessage(reads[n%len(reads)])})
				cancel()
				atomic.AddInt64(&res.reads, 1)
				if sec := int(time.Since(start) / time.Second); sec < maxFleetSeconds {
					res.perSecond[sec].Add(1)
				}
				switch {
				case err != nil:
					atomic.AddInt64(&res.failed, 1)
				case out.IsError && errorCode(out) == "resource_unavailable":
					atomic.AddInt64(&res.refused, 1)
				case out.IsError:
					atomic.AddInt64(&res.failed, 1)
				}
			}
		})
	}
	wg.Wait()
	res.elapsed = time.Since(start)
	res.upstream = dagu.requests.Load() - before
	return res
}

func errorCode(res *mcp.CallToolResult) string {
	raw, _ := json.Marshal(res.StructuredContent)
	var e struct {
		Code string `json:"code"`
	}
	_ = json.Unmarshal(raw, &e)
	return e.Code
}

// finishedReads lists reads of finished runs and specs the fake has: run
// details, run logs and the spec of each DAG with a failed or succeeded run.
func finishedReads(t *testing.T, endpoint string) []string {
	cs := connectHTTP(t, endpoint, "")
	out := callTool(t, cs, `{"target":"runs"}`)
	data, ok := out["data"].(map[string]any)
	if !ok {
		t.Fatalf("runs: %v", out)
	}
	items, _ := data["items"].([]any)
	var reads []string
	seen := map[string]bool{}
	for _, it := range items {
		run := it.(map[string]any)
		status, _ := run["status"].(float64)
		name, _ := run["name"].(string)
		id, _ := run["dagRunId"].(string)
		if (status != 2 && status != 4) || seen[name] {
			continue
		}
		seen[name] = true
		reads = append(reads,
			fmt.Sprintf(`{"target":"run","name":%q,"dagRunId":%q}`, name, id),
			fmt.Sprintf(`{"target":"run_logs","name":%q,"dagRunId":%q}`, name, id),
			fmt.Sprintf(`{"target":"dag_spec","name":%q}`, name))
	}
	if len(reads) < 6 {
		t.Fatalf("only %d reads of finished runs found: %v", len(reads), out)
	}
	return reads
}

func report(t *testing.T, name string, r *fleetResult) {
	t.Logf("%-44s reads %6d (%5.0f/s)  failed %d  refused %d  Dagu requests %d",
		name, r.reads, float64(r.reads)/r.elapsed.Seconds(), r.failed, r.refused, r.upstream)
}

func TestSharedStateFleet(t *testing.T) {
	d := fleetDuration()
	srv := redistest.Start(t)
	shared := []string{"--shared-state", srv.URL()}

	t.Run("cache", func(t *testing.T) {
		run := func(name string, n int, extra ...string) *fleetResult {
			dagu, url := startCountingDagu(t)
			endpoints := startFleet(t, url, n, extra...)
			reads := finishedReads(t, endpoints[0])
			dagu.requests.Store(0)
			// The listing above warmed the run cache of the first gateway
			// only for what it listed; the load reads details, logs, specs.
			r := load(t, dagu, endpoints, 32, reads, d)
			report(t, name, r)
			if os.Getenv("FLEET_PATHS") != "" {
				dagu.mu.Lock()
				for p, n := range dagu.paths {
					t.Logf("  %3d %s", n, p)
				}
				dagu.paths = nil
				dagu.mu.Unlock()
			}
			return r
		}
		srv.Client().FlushAll(context.Background())
		one := run("1 gateway", 1)
		three := run("3 gateways, no shared state", 3)
		srv.Client().FlushAll(context.Background())
		sharedThree := run("3 gateways, shared state", 3, shared...)
		t.Logf("Dagu requests vs 1 gateway: without shared state %.2fx, with %.2fx",
			float64(three.upstream)/float64(one.upstream), float64(sharedThree.upstream)/float64(one.upstream))
	})

	t.Run("topologies", func(t *testing.T) {
		cluster := redistest.StartCluster(t, 3, 1)
		sentinel := redistest.StartSentinel(t, 1, 3)
		run := func(name string, n int, extra ...string) *fleetResult {
			dagu, url := startCountingDagu(t)
			endpoints := startFleet(t, url, n, extra...)
			reads := finishedReads(t, endpoints[0])
			dagu.requests.Store(0)
			r := load(t, dagu, endpoints, 32, reads, d)
			report(t, name, r)
			return r
		}
		one := run("1 gateway", 1)
		for _, c := range []struct{ name, url string }{
			{"3 gateways, one Redis", srv.URL()},
			{"3 gateways, Redis Cluster (3 masters, 3 replicas)", cluster.URL()},
			{"3 gateways, Sentinel (master, replica, 3 sentinels)", sentinel.URL()},
		} {
			flags := []string{"--shared-state", c.url}
			if tmo := os.Getenv("FLEET_SHARED_TIMEOUT"); tmo != "" { // e.g. 1s on a loaded machine
				flags = append(flags, "--shared-state-timeout", tmo)
			}
			r := run(c.name, 3, flags...)
			t.Logf("%-52s Dagu requests vs 1 gateway: %.2fx", c.name, float64(r.upstream)/float64(one.upstream))
		}
	})

	t.Run("failover", func(t *testing.T) {
		cluster := redistest.StartCluster(t, 3, 1)
		sentinel := redistest.StartSentinel(t, 1, 3)
		for _, c := range []struct {
			name, url string
			kill      func()
		}{
			{"Redis Cluster, a master killed", cluster.URL(), func() { cluster.Nodes[0].Stop() }},
			{"Sentinel, the master killed", sentinel.URL(), func() { sentinel.ServerAt(sentinel.CurrentMaster()).Stop() }},
		} {
			dagu, url := startCountingDagu(t)
			endpoints := startFleet(t, url, 3, "--shared-state", c.url)
			reads := finishedReads(t, endpoints[0])
			report(t, c.name+": before", load(t, dagu, endpoints, 32, reads, d/3))
			go func() { time.Sleep(time.Second); c.kill() }()
			r := load(t, dagu, endpoints, 32, reads, d)
			report(t, c.name+": killed 1 s in", r)
			var secs []int64
			for i := range min(int(r.elapsed/time.Second), maxFleetSeconds) {
				secs = append(secs, r.perSecond[i].Load())
			}
			t.Logf("%s: reads in each second: %v", c.name, secs)
			report(t, c.name+": after", load(t, dagu, endpoints, 32, reads, d/3))
		}
	})

	t.Run("rate limit", func(t *testing.T) {
		limit := []string{"--rate-limit", "5", "--rate-burst", "5"}
		reads := []string{`{"target":"reference","name":"read-tool"}`}
		for _, c := range []struct {
			name  string
			extra []string
		}{{"3 gateways --rate-limit 5, no shared state", limit}, {"3 gateways --rate-limit 5, shared state", append(limit, shared...)}} {
			dagu, url := startCountingDagu(t)
			r := load(t, dagu, startFleet(t, url, 3, c.extra...), 6, reads, 10*time.Second)
			report(t, c.name, r)
			admitted := r.reads - r.refused - r.failed
			t.Logf("%-44s admitted %d in %.1f s: %.1f/s cluster-wide", c.name, admitted, r.elapsed.Seconds(), float64(admitted)/r.elapsed.Seconds())
		}
	})

	t.Run("redis stopped and restarted", func(t *testing.T) {
		srv.Client().FlushAll(context.Background())
		dagu, url := startCountingDagu(t)
		endpoints := startFleet(t, url, 3, shared...)
		reads := finishedReads(t, endpoints[0])
		half := len(reads) / 2 / 3 * 3
		before, after := reads[:half], reads[half:]
		r := load(t, dagu, endpoints, 32, before, d/3)
		report(t, "shared, Redis up", r)
		srv.Stop()
		r = load(t, dagu, endpoints, 32, before, d/3)
		report(t, "shared, Redis stopped", r)
		srv.Restart()
		time.Sleep(3 * time.Second) // past the longest pause after failures
		r = load(t, dagu, endpoints, 32, after, d/3)
		report(t, "shared, Redis restarted, runs not read yet", r)
		dagu2, url2 := startCountingDagu(t)
		single := load(t, dagu2, startFleet(t, url2, 1), 32, after, d/3)
		report(t, "1 gateway, the same runs", single)
	})
}
