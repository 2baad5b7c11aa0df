// SPDX-License-Identifier: Apache-2.0

package restclient

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
)

func BenchmarkGuardCheck(b *testing.B) {
	base, _ := restBaseURL("http://dagu:8080", APIv1)
	g := newGuard(base)
	req, _ := http.NewRequest("GET", "http://dagu:8080/api/v1/dag-runs/n/r/sub-dag-runs/s/steps/st/foreach/1.each.0/steps/b/log?stream=stdout&tail=50", nil)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := g.check(req); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecodeGetRoutes decodes an OpenAPI document of about the size a
// real Dagu publishes (~800 KB), most of it skipped component schemas.
func BenchmarkDecodeGetRoutes(b *testing.B) {
	var doc strings.Builder
	doc.WriteString(`{"openapi":"3.0.0","paths":{`)
	for i := range 165 {
		fmt.Fprintf(&doc, `%s"/route%d/{id}":{"get":{"parameters":[{"name":"id","in":"path"}]},"post":{}}`, map[bool]string{true: ",", false: ""}[i > 0], i)
	}
	doc.WriteString(`},"components":{"schemas":{`)
	for i := range 2000 {
		fmt.Fprintf(&doc, `%s"S%d":{"type":"object","description":"%s","properties":{"a":{"type":"string"},"b":{"type":"array","items":{"$ref":"#/x"}}}}`,
			map[bool]string{true: ",", false: ""}[i > 0], i, strings.Repeat("d", 250))
	}
	doc.WriteString(`}}}`)
	raw := []byte(doc.String())
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for b.Loop() {
		routes, err := decodeGetRoutes(bytes.NewReader(raw))
		if err != nil || len(routes) != 165 {
			b.Fatal(len(routes), err)
		}
	}
}

// fixtureBenchClient returns a client of a local server answering the
// recorded fixture.
func fixtureBenchClient(b *testing.B, fixture string) *Client {
	b.Helper()
	srv, _ := newServer(b, serveFixture(loadFixtures(b)[fixture]))
	c, err := New(Config{BaseURL: srv.URL, Key: StaticKey("dagu_bench")})
	if err != nil {
		b.Fatal(err)
	}
	return c
}

// BenchmarkGetDAGRoundTrip measures one guarded call through resty and the
// generated client against a local server answering a recorded DAG.
func BenchmarkGetDAGRoundTrip(b *testing.B) {
	c := fixtureBenchClient(b, "009-dags-mcp-read-contract.json")
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.GetDAG(ctx, "mcp_read_contract"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBurstOf32 measures one burst of DefaultConcurrency concurrent
// calls, started once the previous burst's connections are idle again (an
// agent fleet's reads arrive in such bursts).
func BenchmarkBurstOf32(b *testing.B) {
	srv, _ := newServer(b, func(w http.ResponseWriter, _ *http.Request) { writeJSON(w, 200, healthJSON) })
	c, err := New(Config{BaseURL: srv.URL, Key: StaticKey("dagu_bench")})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		var wg sync.WaitGroup
		for range DefaultConcurrency {
			wg.Go(func() {
				if _, err := c.Health(ctx); err != nil {
					b.Error(err)
				}
			})
		}
		wg.Wait()
	}
}

// BenchmarkGetRunRoundTrip measures one guarded call through resty and the
// generated client against a local server answering a recorded failed
// run's details (about 2 KB, the first read of a `run`).
func BenchmarkGetRunRoundTrip(b *testing.B) {
	c := fixtureBenchClient(b, "037-dag-runs-failing-job-0356UUn8VwcWFuh5L8qwbp.json")
	ctx := context.Background()
	ref := RunRef{Name: "failing_job", RunID: "0356UUn8VwcWFuh5L8qwbp"}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.GetRun(ctx, ref); err != nil {
			b.Fatal(err)
		}
	}
}
