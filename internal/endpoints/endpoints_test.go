// SPDX-License-Identifier: Apache-2.0

package endpoints

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/dagu-mcp-gateway/gateway/internal/instances"
	"github.com/dagu-mcp-gateway/gateway/internal/reqctx"
)

// members builds members whose registry counts one read, whose readiness
// is down for the instance named down, and whose verifier accepts
// "key-of-<name>"; closed counts the closes.
func members(closed *atomic.Int32) func(instances.Instance) (*Member, error) {
	return func(in instances.Instance) (*Member, error) {
		if in.Name == "broken" {
			return nil, errors.New("cannot build")
		}
		reg := prometheus.NewRegistry()
		reads := prometheus.NewCounter(prometheus.CounterOpts{Name: "reads_total", Help: "Reads."})
		reg.MustRegister(reads)
		reads.Inc()
		return &Member{
			Metrics: reg,
			Ready:   func(context.Context, bool) (bool, any) { return in.Name != "down", in.Name },
			Close:   func() { closed.Add(1) },
		}, nil
	}
}

func set(names ...string) instances.Set {
	var s instances.Set
	for _, n := range names {
		s.Instances = append(s.Instances, instances.Instance{Name: n, URL: "http://" + n})
	}
	return s
}

func TestSetGathersReadiesAndCloses(t *testing.T) {
	t.Parallel()
	var closed atomic.Int32
	process := prometheus.NewRegistry()
	process.MustRegister(prometheus.NewGauge(prometheus.GaugeOpts{Name: "memory_bytes", Help: "Memory."}))
	s := New(members(&closed), instances.AuthService, process)
	if err := s.Apply(set("prod", "down")); err != nil {
		t.Fatal(err)
	}
	want := `
# HELP memory_bytes Memory.
# TYPE memory_bytes gauge
memory_bytes 0
# HELP reads_total Reads.
# TYPE reads_total counter
reads_total{dagu_instance="down"} 1
reads_total{dagu_instance="prod"} 1
`
	if err := testutil.GatherAndCompare(s, strings.NewReader(want)); err != nil {
		t.Fatal(err)
	}
	ok, body := s.Ready(context.Background(), true)
	got := body.(map[string]any)
	if !ok || got["status"] != "degraded" || got["instances"].(map[string]any)["prod"] != "prod" {
		t.Fatalf("one instance down: ready %v %v, want degraded and ready", ok, body)
	}
	if _, body := s.Ready(context.Background(), false); len(body.(map[string]any)) != 1 {
		t.Fatalf("the open answer says more than the status: %v", body)
	}
	if found, ok, body := s.ReadyInstance(context.Background(), "prod", false); !found || !ok || body != "prod" {
		t.Fatalf("prod alone: %v %v %v", found, ok, body)
	}
	if found, _, _ := s.ReadyInstance(context.Background(), "dev", false); found {
		t.Fatal("an instance not served was found")
	}
	if err := s.Apply(set("prod", "broken")); err == nil || s.Names()[1] != "down" {
		t.Fatalf("a failed build changed the set: %v %v", err, s.Names())
	}
	mixed := set("prod")
	mixed.Instances[0].UpstreamAuth = instances.AuthPassthrough
	if err := s.Apply(mixed); err == nil {
		t.Fatal("an instance of another upstream auth was accepted")
	}
	s.Close()
	if closed.Load() != 2 { // prod and down; the failed apply built nothing (prod was unchanged)
		t.Fatalf("%d closed, want 2", closed.Load())
	}
}

// TestSetVerifiesMetricsCallersAtEveryInstance: /metrics carries every
// instance's series, so a passthrough key is verified for it only when
// every instance accepts it; one that some accept is TrustSomeInstances
// (a 403, as a token of some instances gets), one none accepts has the
// default instance's verdict, else the first's (issue 38: a key of one
// instance read every instance's series).
func TestSetVerifiesMetricsCallersAtEveryInstance(t *testing.T) {
	t.Parallel()
	var closed atomic.Int32
	build := func(in instances.Instance) (*Member, error) {
		m, _ := members(&closed)(in)
		m.Endpoint.MCP = http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, in.Name) })
		m.Endpoint.Verify = func(_ context.Context, credential, _ string) (reqctx.Trust, string) {
			if credential == "key-of-"+in.Name || credential == "key-of-all" {
				return reqctx.TrustVerified, "caller-at-" + in.Name
			}
			if credential == "key-lacking-surface" && in.Name == "default" {
				return reqctx.TrustLacksSurface, "unverified"
			}
			return reqctx.TrustRefused, "unverified"
		}
		return m, nil
	}
	s := New(build, instances.AuthPassthrough, prometheus.NewRegistry())
	if trust, _ := s.VerifyMetrics(context.Background(), "key-of-prod", ""); trust != reqctx.TrustUnchecked {
		t.Fatalf("an empty set verified a caller: %v", trust)
	}
	for _, tt := range []struct {
		names      []string
		key        string
		want       reqctx.Trust
		wantCaller string
	}{
		{[]string{"prod"}, "key-of-prod", reqctx.TrustVerified, "caller-at-prod"},
		{[]string{"prod", "staging"}, "key-of-all", reqctx.TrustVerified, "caller-at-prod"},
		{[]string{"prod", "staging"}, "key-of-prod", reqctx.TrustSomeInstances, "caller-at-prod"},
		{[]string{"prod", "staging"}, "key-of-staging", reqctx.TrustSomeInstances, "caller-at-staging"},
		{[]string{"prod", "staging"}, "key-of-nobody", reqctx.TrustRefused, "unverified"},
		{[]string{"staging", "default"}, "key-of-all", reqctx.TrustVerified, "caller-at-default"},
		{[]string{"staging", "default"}, "key-of-default", reqctx.TrustSomeInstances, "caller-at-default"},
		{[]string{"staging", "default"}, "key-of-staging", reqctx.TrustSomeInstances, "caller-at-staging"},
		{[]string{"staging", "default"}, "key-lacking-surface", reqctx.TrustLacksSurface, "unverified"},
	} {
		if err := s.Apply(set(tt.names...)); err != nil {
			t.Fatal(err)
		}
		if trust, caller := s.VerifyMetrics(context.Background(), tt.key, ""); trust != tt.want || caller != tt.wantCaller {
			t.Errorf("%v, %s: %v %q, want %v %q", tt.names, tt.key, trust, caller, tt.want, tt.wantCaller)
		}
	}
	ep, release, ok := s.Endpoint("default")
	if !ok || ep.MCP == nil {
		t.Fatal("no default endpoint")
	}
	release()
	if _, _, ok := s.Endpoint("prod"); ok {
		t.Fatal("a removed instance is still served")
	}
}

// TestReadyWhileAnyInstanceIs: /readyz fails only when no instance is
// ready; one down instance makes the gateway degraded, not unready.
func TestReadyWhileAnyInstanceIs(t *testing.T) {
	t.Parallel()
	tests := []struct {
		instances  []string
		wantOK     bool
		wantStatus string
	}{
		{[]string{"prod", "staging"}, true, "ready"},
		{[]string{"prod", "down"}, true, "degraded"},
		{[]string{"down"}, false, "not ready"},
		{nil, false, "not ready"},
	}
	for _, tt := range tests {
		var closed atomic.Int32
		s := New(members(&closed), instances.AuthService, prometheus.NewRegistry())
		if err := s.Apply(set(tt.instances...)); err != nil {
			t.Fatal(err)
		}
		ok, body := s.Ready(context.Background(), false)
		if ok != tt.wantOK || body.(map[string]any)["status"] != tt.wantStatus {
			t.Errorf("%v: ready %v %v, want %v %s", tt.instances, ok, body, tt.wantOK, tt.wantStatus)
		}
		s.Close()
	}
}
