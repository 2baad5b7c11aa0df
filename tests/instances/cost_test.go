// SPDX-License-Identifier: Apache-2.0

//go:build instances && linux

package instances

import (
	"fmt"
	"net/http"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
)

// Idle-instances measurement (issue 31: 20 idle instances add under 10 MiB
// RSS). Each configuration runs in rssRuns fresh processes; the median is
// reported.
const (
	idleInstances  = 20
	rssRuns        = 3
	readsPerServer = 3
	settleTime     = 3 * time.Second
	maxAddedRSS    = 10 << 20
)

// TestIdleInstancesRSS starts the gateway with one instance, then with 20
// (each its own fake Dagu), makes a few reads on every endpoint, lets it
// settle and reads its resident set (VmRSS). It is a measurement, run by
// make instances-rss (INSTANCES_RSS=1), not by make instances.
func TestIdleInstancesRSS(t *testing.T) {
	if os.Getenv("INSTANCES_RSS") == "" {
		t.Skip("a measurement: run it with INSTANCES_RSS=1 (make instances-rss)")
	}
	one := medianRSS(t, 1)
	many := medianRSS(t, idleInstances)
	added := many - one
	t.Logf("RESULT idle instances: VmRSS %.1f MiB with 1 instance, %.1f MiB with %d (added %.1f MiB, %.2f MiB per instance; median of %d processes each)",
		mib(one), mib(many), idleInstances, mib(added), mib(added)/float64(idleInstances-1), rssRuns)
	if added > maxAddedRSS {
		t.Errorf("%d idle instances add %.1f MiB, more than %d MiB", idleInstances, mib(added), maxAddedRSS>>20)
	}
}

// medianRSS is the median VmRSS of rssRuns gateways with n instances,
// each read readsPerServer times and then left idle for settleTime.
func medianRSS(t *testing.T, n int) int64 {
	t.Helper()
	var samples []int64
	for range rssRuns {
		samples = append(samples, idleRSS(t, n))
	}
	slices.Sort(samples)
	t.Logf("%d instance(s): VmRSS samples %v KiB", n, kib(samples))
	return samples[len(samples)/2]
}

func idleRSS(t *testing.T, n int) int64 {
	t.Helper()
	list := make([]instance, n)
	for i := range list {
		d := newFake(t, fakedagu.ProfileCurrent, fmt.Sprintf("dagu_instances_rss_%02d_0123456789", i))
		list[i] = instance{name: fmt.Sprintf("dagu-%02d", i), url: d.url, keyFile: writeSecret(t, d.key)}
	}
	g := startGateway(t, "--instances", writeInstances(t, list), "--auth-token", inboundToken)
	defer g.Stop()
	for _, in := range list {
		for range readsPerServer {
			if a := readAt(t, g, "/dagu/"+in.name+"/mcp", inboundToken, latestRun); a.status != http.StatusOK || a.isError {
				t.Fatalf("%s: read failed: %d %.300s", in.name, a.status, a.body)
			}
		}
	}
	time.Sleep(settleTime)
	return g.RSS(t)
}

func mib(b int64) float64 { return float64(b) / (1 << 20) }

func kib(samples []int64) []int64 {
	out := make([]int64, len(samples))
	for i, s := range samples {
		out[i] = s >> 10
	}
	return out
}
