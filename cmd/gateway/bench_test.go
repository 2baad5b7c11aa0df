// SPDX-License-Identifier: Apache-2.0

package main

import (
	"bytes"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/spf13/pflag"

	"github.com/dagu-mcp-gateway/gateway/internal/config"
	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
	"github.com/dagu-mcp-gateway/gateway/internal/frontdoor"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient"
)

// replayTransport answers every upstream request from a fake Dagu handler
// in process: no sockets, so the benchmark below is the gateway's own cost
// plus the fake's (small) work of serving a recorded answer.
type replayTransport struct{ h http.Handler }

func (r replayTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	rec := httptest.NewRecorder()
	r.h.ServeHTTP(rec, req)
	res := rec.Result()
	res.Request = req
	return res, nil
}

// cannedTransport serves one fixed body: with it the benchmark measures the
// gateway alone.
type cannedTransport struct{ body []byte }

func (c cannedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}},
		Body: io.NopCloser(bytes.NewReader(c.body)), ContentLength: int64(len(c.body)), Request: req}, nil
}

func benchHandler(b *testing.B, transport http.RoundTripper) http.Handler {
	b.Helper()
	fs := pflag.NewFlagSet("bench", pflag.ContinueOnError)
	config.RegisterFlags(fs, config.ModeServe)
	_ = fs.Parse([]string{"--dagu-url", "http://dagu.invalid"})
	cfg, err := config.Resolve(fs, func(string) string { return "" })
	if err != nil {
		b.Fatal(err)
	}
	log := slog.New(slog.DiscardHandler)
	reg := prometheus.NewRegistry()
	client, err := restclient.New(restclient.Config{BaseURL: cfg.DaguURL, Key: restclient.StaticKey("dagu_bench"), Transport: transport, Metrics: reg})
	if err != nil {
		b.Fatal(err)
	}
	g, err := assemble(cfg, log, reg, client, nil, nil, nil, "")
	if err != nil {
		b.Fatal(err)
	}
	h, err := frontdoor.New(frontdoor.Options{MCP: g.mcpHandler(), Listen: "127.0.0.1:8090", Logger: log})
	if err != nil {
		b.Fatal(err)
	}
	return h
}

func serveCall(b *testing.B, h http.Handler, args string) {
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"dagu_read","arguments":` + args + `}}`
	req := httptest.NewRequest(http.MethodPost, "http://127.0.0.1:8090/mcp", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != 200 || strings.Contains(rec.Body.String(), `"isError":true`) {
		b.Fatalf("status %d: %s", rec.Code, rec.Body.String())
	}
}

// BenchmarkHTTPDAGsCall is one dags call through the whole server side of
// the gateway: front door, stateless Streamable HTTP handler, tool, adapter,
// REST client; the upstream answer is a canned copy of the recorded list.
func BenchmarkHTTPDAGsCall(b *testing.B) {
	fake := fakedagu.New(fakedagu.Options{RecordedOnly: true, Now: func() time.Time { return time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC) }})
	rec := httptest.NewRecorder()
	fake.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "http://dagu.invalid/api/v1/dags", nil))
	h := benchHandler(b, cannedTransport{rec.Body.Bytes()})
	b.ReportAllocs()
	for b.Loop() {
		serveCall(b, h, `{"target":"dags"}`)
	}
}

// BenchmarkHTTPRunCallOverFake reads one run with the fake Dagu in process.
func BenchmarkHTTPRunCallOverFake(b *testing.B) {
	h := benchHandler(b, replayTransport{fakedagu.New(fakedagu.Options{RecordedOnly: true})})
	b.ReportAllocs()
	for b.Loop() {
		serveCall(b, h, `{"target":"run","name":"failing_job","dagRunId":"0356UUn8VwcWFuh5L8qwbp"}`)
	}
}

// BenchmarkHTTPHostileBody sends the body of issue 28's attack 2 (1 MiB of
// arguments holding about 90,000 unknown keys) through the whole server
// side; alloc-per-body-byte is what the front door's parse factor
// (requestParseFactor, 8) must cover: every byte allocated while the body
// is parsed and answered, per byte of body.
func BenchmarkHTTPHostileBody(b *testing.B) {
	h := benchHandler(b, cannedTransport{[]byte(`{}`)})
	var args strings.Builder
	args.WriteString(`{"target":"dags"`)
	for i := 0; args.Len() < (1<<20)-128; i++ {
		fmt.Fprintf(&args, `,"k%06d":1`, i)
	}
	args.WriteString(`}`)
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"dagu_read","arguments":` + args.String() + `}}`
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for b.Loop() {
		req := httptest.NewRequest(http.MethodPost, "http://127.0.0.1:8090/mcp", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != 200 || !strings.Contains(rec.Body.String(), "in all).") {
			b.Fatalf("status %d: %.300s", rec.Code, rec.Body.String())
		}
	}
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(b.N)/float64(len(body)), "alloc-per-body-byte")
}
