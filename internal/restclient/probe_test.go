// SPDX-License-Identifier: Apache-2.0

package restclient

import (
	"context"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
)

func TestProbe(t *testing.T) {
	t.Parallel()
	fixtures := loadFixtures(t)
	tests := []struct {
		name    string
		handler http.HandlerFunc
		key     KeySource
		want    ProbeResult
	}{
		{"healthy", serveFixture(fixtures["004-dags.json"]), nil, ProbeResult{OK: true}},
		{"no credentials", serveFixture(fixtures["059-dags.json"]), nil, ProbeResult{Reason: ProbeAuth, Detail: "Dagu answered HTTP 401"}},
		{"key without rest_api", serveFixture(fixtures["061-dags.json"]), nil, ProbeResult{Reason: ProbeSurface, Detail: "Dagu answered HTTP 403"}},
		{"role too low", func(w http.ResponseWriter, _ *http.Request) {
			writeJSON(w, 403, `{"code":"forbidden","message":"Insufficient permissions"}`)
		}, nil, ProbeResult{Reason: ProbeAuth, Detail: "Dagu answered HTTP 403 (forbidden)"}},
		{"server error", func(w http.ResponseWriter, _ *http.Request) {
			writeJSON(w, 500, `{"code":"internal_error","message":"boom"}`)
		}, nil, ProbeResult{Reason: ProbeUpstream, Detail: "Dagu answered HTTP 500 (internal_error)"}},
		{"unreadable key", serveFixture(fixtures["004-dags.json"]), FileKey(filepath.Join(t.TempDir(), "none")), ProbeResult{Reason: ProbeAuth}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, rec := newServer(t, tt.handler)
			c := newTestClient(t, srv.URL, func(cfg *Config) {
				if tt.key != nil {
					cfg.Key = tt.key
				}
			})
			got := c.Probe(context.Background())
			if got.OK != tt.want.OK || got.Reason != tt.want.Reason || (tt.want.Detail != "" && got.Detail != tt.want.Detail) {
				t.Fatalf("Probe = %+v, want %+v", got, tt.want)
			}
			if strings.Contains(got.Detail, "dagu_test_key") {
				t.Fatalf("detail leaks the key: %q", got.Detail)
			}
			if n := len(rec.all()); n > 0 && rec.all()[0].RawQuery != "perPage=1" {
				t.Errorf("probe query = %q", rec.all()[0].RawQuery)
			}
		})
	}
}

func TestProbeNetworkAndTLS(t *testing.T) {
	t.Parallel()
	closed, _ := newServer(t, func(http.ResponseWriter, *http.Request) {})
	closed.Close()
	c := newTestClient(t, closed.URL, nil)
	if got := c.Probe(context.Background()); got.Reason != ProbeNetwork {
		t.Errorf("closed server: %+v", got)
	}
	tlsSrv, _ := newServer(t, func(http.ResponseWriter, *http.Request) {})
	c = newTestClient(t, strings.Replace(tlsSrv.URL, "http://", "https://", 1), nil)
	if got := c.Probe(context.Background()); got.Reason != ProbeTLS && got.Reason != ProbeNetwork {
		t.Errorf("TLS to a plain server: %+v", got)
	}
}

func TestMetrics(t *testing.T) {
	t.Parallel()
	srv, _ := newServer(t, scripted(t, step{status: 503}, step{status: 200}, step{status: 404}))
	reg := prometheus.NewRegistry()
	c := newTestClient(t, srv.URL, func(cfg *Config) { cfg.Metrics = reg })
	ctx := context.Background()
	if _, err := c.Health(ctx); err != nil { // 503, retried, then 200
		t.Fatal(err)
	}
	if _, err := c.Health(ctx); !IsStatus(err, 404) {
		t.Fatalf("err = %v", err)
	}
	got := gatherCounts(t, reg)
	want := map[string]float64{
		"dagu_gateway_upstream_requests_total{outcome=2xx,route=/health}": 1,
		"dagu_gateway_upstream_requests_total{outcome=4xx,route=/health}": 1,
		"dagu_gateway_upstream_retries_total{route=/health}":              1,
		"dagu_gateway_upstream_request_duration_seconds{route=/health}":   2,
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %v, want %v (all: %v)", k, got[k], v, got)
		}
	}
	// A second client on the same registry must not fail to register.
	if _, err := New(Config{BaseURL: srv.URL, Metrics: reg}); err != nil {
		t.Fatal(err)
	}
}

// gatherCounts flattens a registry into "name{label=value,...}" -> counter
// value or histogram sample count.
func gatherCounts(t *testing.T, reg *prometheus.Registry) map[string]float64 {
	t.Helper()
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]float64{}
	for _, fam := range families {
		for _, m := range fam.GetMetric() {
			var labels []string
			for _, l := range m.GetLabel() {
				labels = append(labels, l.GetName()+"="+l.GetValue())
			}
			key := fam.GetName() + "{" + strings.Join(labels, ",") + "}"
			switch {
			case m.GetCounter() != nil:
				out[key] = m.GetCounter().GetValue()
			case m.GetHistogram() != nil:
				out[key] = float64(m.GetHistogram().GetSampleCount())
			}
		}
	}
	return out
}
