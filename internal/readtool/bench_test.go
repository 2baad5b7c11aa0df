// SPDX-License-Identifier: Apache-2.0

package readtool_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
	"github.com/dagu-mcp-gateway/gateway/internal/readtool"
	"github.com/dagu-mcp-gateway/gateway/internal/reference"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient"
	"github.com/dagu-mcp-gateway/gateway/internal/upstream"
)

// cannedTransport answers every request with one recorded body, so a
// benchmark measures the gateway alone: guard, resty, decoding, mapping,
// the tool and its envelope, with no network and no server work.
type cannedTransport struct{ body []byte }

func (c cannedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	return &http.Response{
		StatusCode:    http.StatusOK,
		Header:        http.Header{"Content-Type": {"application/json"}},
		Body:          io.NopCloser(bytes.NewReader(c.body)),
		ContentLength: int64(len(c.body)),
		Request:       req,
	}, nil
}

// recordedBody fetches one answer from the fake Dagu, so the canned body is
// exactly what the fake (and the recording behind it) serves.
func recordedBody(b *testing.B, path string) []byte {
	b.Helper()
	fake := fakedagu.New(fakedagu.Options{RecordedOnly: true, Now: func() time.Time { return recordedNow }})
	req, _ := http.NewRequest(http.MethodGet, "http://dagu.invalid"+path, nil)
	rec := &bodyRecorder{header: http.Header{}}
	fake.ServeHTTP(rec, req)
	if rec.status != http.StatusOK {
		b.Fatalf("fake answered %d for %s", rec.status, path)
	}
	return rec.buf.Bytes()
}

type bodyRecorder struct {
	header http.Header
	status int
	buf    bytes.Buffer
}

func (r *bodyRecorder) Header() http.Header { return r.header }
func (r *bodyRecorder) WriteHeader(status int) {
	r.status = status
}
func (r *bodyRecorder) Write(p []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	return r.buf.Write(p)
}

func cannedTool(b *testing.B, body []byte) *readtool.Tool {
	b.Helper()
	client, err := restclient.New(restclient.Config{BaseURL: "http://dagu.invalid", Key: restclient.StaticKey(testKey), Transport: cannedTransport{body}})
	if err != nil {
		b.Fatal(err)
	}
	adapter, err := upstream.NewAdapter(upstream.AdapterOptions{Client: client, DAGCacheTTL: upstream.DefaultDAGCacheTTL})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(adapter.Wait) // the name cache's background refreshes
	refs, _ := reference.New(reference.Options{})
	tool, err := readtool.New(readtool.Options{Upstream: adapter, References: refs})
	if err != nil {
		b.Fatal(err)
	}
	return tool
}

// BenchmarkGatewayCostDAGs is the gateway's own cost of one dags call
// (default page of the recorded list), upstream time excluded. Goal: under
// 1 ms and 500 allocations.
func BenchmarkGatewayCostDAGs(b *testing.B) {
	tool := cannedTool(b, recordedBody(b, "/api/v1/dags"))
	args := json.RawMessage(`{"target":"dags"}`)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if res := tool.Call(ctx, args); res.IsError {
			b.Fatalf("error: %+v", res.StructuredContent)
		}
	}
}

// BenchmarkGatewayCostDAGsOverMCP adds the MCP JSON-RPC layer (in-memory
// transport, real SDK client and server) to the same call.
func BenchmarkGatewayCostDAGsOverMCP(b *testing.B) {
	session := connect(b, cannedTool(b, recordedBody(b, "/api/v1/dags")))
	h := &harness{session: session}
	b.ReportAllocs()
	for b.Loop() {
		if res := h.call(b, `{"target":"dags"}`); res.IsError {
			b.Fatal("error result")
		}
	}
}

// BenchmarkTargetsOverFake runs one representative read per target end to
// end: MCP client, tool, adapter, REST client, loopback HTTP, fake Dagu.
func BenchmarkTargetsOverFake(b *testing.B) {
	cases := []struct{ name, args string }{
		{"references", `{"target":"references"}`},
		{"reference", `{"target":"reference","name":"read-tool"}`},
		{"dags", `{"target":"dags"}`},
		{"dag", `{"target":"dag","name":"mcp_read_contract"}`},
		{"dag_spec", `{"target":"dag_spec","name":"failing_job"}`},
		{"dag_search", `{"target":"dag_search","search":"echo"}`},
		{"wiki", `{"target":"wiki"}`},
		{"wiki_page", `{"target":"wiki_page","workspace":"default","path":"runbooks/nightly-export"}`},
		{"wiki_search", `{"target":"wiki_search","search":"failing"}`},
		{"runs", `{"target":"runs","query":"fromDate=0"}`},
		{"run", `{"target":"run",` + failingRun + `}`},
		{"run_sub", `{"target":"run",` + parentRun + `,"subRunId":"` + subRunID + `"}`},
		{"run_logs", `{"target":"run_logs",` + failingRun + `}`},
		{"step_log", `{"target":"step_log",` + failingRun + `,"stepName":"explode"}`},
		{"step_log_big_tail", `{"target":"step_log",` + bigLogRun + `,"stepName":"spew","query":"stream=stdout&tail=1000"}`},
		{"foreach_items", `{"target":"foreach_items",` + foreachRun + `}`},
		{"foreach_item", `{"target":"foreach_item",` + foreachRun + `,"item":"1"}`},
	}
	for _, mode := range []struct {
		name string
		mode fakedagu.ForeachMode
	}{{"routes", fakedagu.ForeachRoutes}, {"aggregate", fakedagu.ForeachAggregate}} {
		h := newHarness(b, fakedagu.Options{Foreach: mode.mode})
		for _, tc := range cases {
			if mode.mode == fakedagu.ForeachAggregate && tc.name[:3] != "for" {
				continue
			}
			b.Run(mode.name+"/"+tc.name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					h.fake.Reset()
					if res := h.call(b, tc.args); res.IsError {
						b.Fatalf("error: %+v", res.StructuredContent)
					}
				}
			})
		}
	}
}

// BenchmarkReferenceReadTool measures the tool's own encoding work on its
// largest answer (the read-tool guide, about 25 KB), with no upstream.
func BenchmarkReferenceReadTool(b *testing.B) {
	refs, err := reference.New(reference.Options{})
	if err != nil {
		b.Fatal(err)
	}
	tool, err := readtool.New(readtool.Options{Upstream: specOnly{}, References: refs})
	if err != nil {
		b.Fatal(err)
	}
	args := json.RawMessage(`{"target":"reference","name":"read-tool"}`)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if res := tool.Call(ctx, args); res.IsError {
			b.Fatal("error result")
		}
	}
}
