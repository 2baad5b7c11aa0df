// SPDX-License-Identifier: Apache-2.0

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu/fakedagutest"
	"github.com/dagu-mcp-gateway/gateway/internal/sharedstate/redistest"
	"github.com/dagu-mcp-gateway/gateway/internal/testkit"
)

// These tests run two gateways in front of one fake Dagu, sharing a real
// Redis Cluster or a real Sentinel-watched master, and kill the master
// that holds what they share while clients keep reading through both.

// sharedPair is two gateways sharing one shared state.
type sharedPair struct {
	fake     *fakedagu.Server
	bases    []string
	sessions []*mcp.ClientSession
	logs     []*testkit.LogBuffer
}

// startSharedPair serves two gateways with --shared-state url and the
// extra flags. Every shared-state operation takes a shared token of a rate
// limit too high to refuse anything, so reads exercise the shared state
// even when their answers are cached.
func startSharedPair(t *testing.T, url string, extra ...string) *sharedPair {
	t.Helper()
	fake, daguURL := fakedagutest.Start(t, fakedagu.Options{APIKey: fakedagutest.APIKey})
	p := &sharedPair{fake: fake}
	for range 2 {
		args := append([]string{"--dagu-url", daguURL, "--dagu-api-key", fakedagutest.APIKey, "--shared-state", url,
			"--shared-state-timeout", "1s", "--rate-limit", "100000", "--rate-burst", "100000", "--list-cache-ttl", "50ms"}, extra...)
		cfg, err := resolveFrom(t, args, nil)
		if err != nil {
			t.Fatal(err)
		}
		logs := &testkit.LogBuffer{}
		base, _ := serveConfigLogged(t, cfg, mapEnv(nil), slog.New(slog.NewTextHandler(logs, nil)))
		p.bases = append(p.bases, base)
		p.logs = append(p.logs, logs)
		p.sessions = append(p.sessions, connectHTTP(t, base+"/mcp", ""))
	}
	return p
}

// readsFromDagu counts the Dagu requests whose path holds part.
func (p *sharedPair) readsFromDagu(part string) int {
	n := 0
	for _, r := range p.fake.Requests() {
		if strings.Contains(r.Path, part) {
			n++
		}
	}
	return n
}

// checkShared reads args on the first gateway, then on the second, and
// fails unless the second made no Dagu request whose path holds part.
func (p *sharedPair) checkShared(t *testing.T, args, part string) {
	t.Helper()
	if out := callTool(t, p.sessions[0], args); out["data"] == nil {
		t.Fatalf("first gateway %s: %v", args, out)
	}
	p.fake.Reset()
	if out := callTool(t, p.sessions[1], args); out["data"] == nil {
		t.Fatalf("second gateway %s: %v", args, out)
	}
	if n := p.readsFromDagu(part); n != 0 {
		t.Fatalf("the second gateway read %s from Dagu %d times after the first had read it", args, n)
	}
}

// dagNames lists the fake's DAGs.
func (p *sharedPair) dagNames(t *testing.T) []string {
	t.Helper()
	out := callTool(t, p.sessions[0], `{"target":"dags"}`)
	data, _ := out["data"].(map[string]any)
	items, _ := data["items"].([]any)
	var names []string
	for _, it := range items {
		if m, ok := it.(map[string]any); ok {
			if name, ok := m["name"].(string); ok {
				names = append(names, name)
			}
		}
	}
	if len(names) < 3 {
		t.Fatalf("the fake lists %d DAGs: %v", len(names), out)
	}
	return names
}

// readThroughout reads through both gateways until stop is closed: every
// read must succeed. It returns the count of reads once stopped.
func (p *sharedPair) readThroughout(t *testing.T, stop <-chan struct{}) func() int64 {
	t.Helper()
	reads := []string{finishedRun, `{"target":"dags"}`, `{"target":"runs"}`,
		`{"target":"dag_spec","name":"failing_job"}`}
	var n atomic.Int64
	var wg sync.WaitGroup
	for i := range 4 {
		cs := p.sessions[i%2]
		wg.Go(func() {
			for j := i; ; j++ {
				select {
				case <-stop:
					return
				default:
				}
				args := reads[j%len(reads)]
				ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "dagu_read", Arguments: json.RawMessage(args)})
				cancel()
				if err != nil || res.IsError {
					t.Errorf("a read during the failover failed: %s: %v %v", args, err, res)
					return
				}
				n.Add(1)
			}
		})
	}
	return func() int64 { wg.Wait(); return n.Load() }
}

// sharedStatus is /readyz's sharedState detail of a gateway.
func sharedStatus(t *testing.T, base string) map[string]any {
	t.Helper()
	res, err := http.Get(base + "/readyz")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var body map[string]any
	if err := json.NewDecoder(res.Body).Decode(&body); err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != http.StatusOK {
		t.Fatalf("/readyz answered %d: %v", res.StatusCode, body)
	}
	st, _ := body["sharedState"].(map[string]any)
	return st
}

// waitSharedUp waits until both gateways' /readyz say the shared state is
// up on a node other than gone.
func (p *sharedPair) waitSharedUp(t *testing.T, gone string, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for _, base := range p.bases {
		for {
			st := sharedStatus(t, base)
			if st["up"] == true && st["lastHealthy"] != nil && !strings.Contains(fmt.Sprint(st["nodes"]), gone+" ") {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: shared state not up again within %s: %v", base, within, st)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
}

// checkOneOutage fails unless each gateway logged at most one shared-state
// warning for the failover (one outage, however many reads fell back) and
// its metrics name one of nodes as up and a time sharing was last healthy.
func (p *sharedPair) checkOneOutage(t *testing.T, nodes ...string) {
	t.Helper()
	for i, base := range p.bases {
		logs := p.logs[i].String()
		n := 0
		for line := range strings.Lines(logs) {
			if strings.Contains(line, "level=WARN") && strings.Contains(line, "shared state") {
				n++
			}
		}
		if n > 1 {
			t.Errorf("gateway %d warned %d times for one failover, want at most once:\n%s", i, n, logs)
		}
		wants := []string{"dagu_gateway_shared_state_up 1"}
		for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
			// A read keeps operations flowing to the masters: a cluster
			// master no operation reached for 5 s leaves the metrics.
			callTool(t, p.sessions[i], `{"target":"dags"}`)
			_, metrics := get(t, base+"/metrics", "")
			missing := slices.DeleteFunc(slices.Clone(wants), func(w string) bool { return strings.Contains(metrics, w) })
			if !slices.ContainsFunc(nodes, func(n string) bool {
				return strings.Contains(metrics, `dagu_gateway_shared_state_node_up{node="`+n+`"} 1`)
			}) {
				missing = append(missing, fmt.Sprintf("a node of %v up", nodes))
			}
			if strings.Contains(metrics, "dagu_gateway_shared_state_last_healthy_timestamp_seconds 0\n") {
				missing = append(missing, "a time sharing was last healthy")
			}
			if len(missing) == 0 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("gateway %d's /metrics has no %v", i, missing)
			}
		}
	}
}

func TestGatewaysShareThroughRedisClusterWithAMasterKilled(t *testing.T) {
	t.Parallel()
	cluster := redistest.StartCluster(t, 3, 1)
	p := startSharedPair(t, cluster.URL())
	p.fake.Reset()
	p.checkShared(t, finishedRun, "/dag-runs/")

	// Kill the master that holds the shared run details.
	var victim *redistest.Server
	var entry string
	for _, n := range cluster.Nodes {
		keys, _ := n.Client().Keys(context.Background(), "dgw:*:c:run:*").Result()
		if len(keys) > 0 {
			entry = keys[0]
			victim = cluster.MasterOf(entry)
			break
		}
	}
	if victim == nil {
		t.Fatal("no shared run entry in the cluster")
	}
	stop := make(chan struct{})
	reads := p.readThroughout(t, stop)
	victim.Stop()
	cluster.WaitHealthy(time.Minute)
	p.waitSharedUp(t, victim.Addr(), time.Minute)
	close(stop)
	t.Logf("%d reads, none failed, while master %s was killed and replaced", reads(), victim.Addr())

	names := p.dagNames(t)
	p.fake.Reset()
	p.checkShared(t, fmt.Sprintf(`{"target":"dag_spec","name":%q}`, names[1]), names[1])
	p.checkShared(t, fmt.Sprintf(`{"target":"dag_spec","name":%q}`, names[2]), names[2])
	st := sharedStatus(t, p.bases[0])
	if st["topology"] != "cluster" || strings.Contains(fmt.Sprint(st["nodes"]), victim.Addr()+" ") {
		t.Fatalf("/readyz's sharedState after the failover: %v", st)
	}
	var survivors []string
	for _, n := range cluster.Nodes {
		if n != victim {
			survivors = append(survivors, n.Addr())
		}
	}
	p.checkOneOutage(t, survivors...)
}

func TestGatewaysShareThroughSentinelAcrossAPromotion(t *testing.T) {
	t.Parallel()
	sentinel := redistest.StartSentinel(t, 1, 3,
		redistest.WithDataPassword("gw-data-secret-64"), redistest.WithSentinelPassword("gw-sentinel-secret-28"))
	p := startSharedPair(t, sentinel.URL(), "--shared-state-password-file", sentinel.DataPasswordFile,
		"--shared-state-sentinel-password-file", sentinel.SentinelPasswordFile)
	p.fake.Reset()
	p.checkShared(t, finishedRun, "/dag-runs/")
	old := sentinel.CurrentMaster()
	if st := sharedStatus(t, p.bases[1]); !strings.Contains(fmt.Sprint(st["nodes"]), old) || st["topology"] != "sentinel" {
		t.Fatalf("/readyz's sharedState names %v, want the master %s", st, old)
	}

	stop := make(chan struct{})
	reads := p.readThroughout(t, stop)
	sentinel.ServerAt(old).Stop()
	promoted := sentinel.WaitPromotion(old, time.Minute)
	p.waitSharedUp(t, old, time.Minute)
	close(stop)
	t.Logf("%d reads, none failed, while master %s was killed and %s promoted", reads(), old, promoted)

	names := p.dagNames(t)
	p.fake.Reset()
	p.checkShared(t, fmt.Sprintf(`{"target":"dag_spec","name":%q}`, names[1]), names[1])
	st := sharedStatus(t, p.bases[0])
	if !strings.Contains(fmt.Sprint(st["nodes"]), promoted) {
		t.Fatalf("/readyz's sharedState after the promotion names %v, want %s", st, promoted)
	}
	if raw, _ := json.Marshal(st); strings.Contains(string(raw), "secret") {
		t.Fatalf("/readyz shows a password: %s", raw)
	}
	p.checkOneOutage(t, promoted)
	for i, logs := range p.logs {
		if strings.Contains(logs.String(), "secret") {
			t.Fatalf("gateway %d logged a password:\n%s", i, logs)
		}
	}
}
