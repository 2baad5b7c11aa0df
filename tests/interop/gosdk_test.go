// SPDX-License-Identifier: Apache-2.0

//go:build interop

package interop

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dagu-mcp-gateway/gateway/internal/demo"
	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
	"github.com/dagu-mcp-gateway/gateway/tests/gwproc"
)

// The eras and the code of a missing resource in each.
var eras = []struct {
	version  string
	notFound int64
}{
	{"2026-07-28", jsonrpc.CodeInvalidParams},
	{"2025-11-25", -32002},
}

const (
	daguKey = "dagu_interop_go_0123456789abcdef"
	token   = "interop-go-token-0123456789abcdef"
)

// bearer adds the inbound token to every request.
type bearer struct{}

func (bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+token)
	return http.DefaultTransport.RoundTrip(r)
}

// TestGoSDKClientInBothEras: the go-sdk client, asked for each era, ends
// in it and reads every target family and one resource per family as an
// application would, against the built gateway in front of the demo's
// recorded Dagu.
func TestGoSDKClientInBothEras(t *testing.T) {
	bin, err := gwproc.Build(t.TempDir(), "INTEROP_GATEWAY_BIN")
	if err != nil {
		t.Fatal(err)
	}
	srv, daguURL, err := demo.StartDagu(daguKey, fakedagu.ProfileCurrent, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	env := append(os.Environ(), "DAGU_API_KEY="+daguKey, "GATEWAY_AUTH_TOKENS="+token)
	gw := gwproc.Start(t, gwproc.Options{Bin: bin, Args: []string{"--dagu-url", daguURL}, Env: env})
	for _, era := range eras {
		t.Run(era.version, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			client := mcp.NewClient(&mcp.Implementation{Name: "interop-go", Version: "0"}, nil)
			transport := &mcp.StreamableClientTransport{Endpoint: gw.Base + "/mcp", HTTPClient: &http.Client{Transport: bearer{}}}
			cs, err := client.Connect(ctx, transport, &mcp.ClientSessionOptions{ProtocolVersion: era.version})
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			if got := cs.InitializeResult().ProtocolVersion; got != era.version {
				t.Fatalf("the session speaks %q", got)
			}
			r := reader{t: t, ctx: ctx, cs: cs, modern: era.version == "2026-07-28"}
			for _, f := range families {
				t.Run(f.name, func(t *testing.T) {
					r.t = t
					f.read(r)
					if f.resource.uri != "" {
						r.resource(f.resource)
					}
				})
			}
			t.Run("missing resource", func(t *testing.T) {
				_, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "dagu://dags/no_such_dag/spec"})
				var rpc *jsonrpc.Error
				var data struct{ Code, URI string }
				if !errors.As(err, &rpc) || rpc.Code != era.notFound || json.Unmarshal(rpc.Data, &data) != nil ||
					data.Code != "resource_not_found" || data.URI != "dagu://dags/no_such_dag/spec" {
					t.Fatalf("%v; want %d with the contract's resource_not_found", err, era.notFound)
				}
			})
		})
	}
}

// reader reads through one session what an application would.
type reader struct {
	t      *testing.T
	ctx    context.Context
	cs     *mcp.ClientSession
	modern bool
}

// read calls dagu_read and returns its structured content as JSON text
// (isError must be wantError).
func (r reader) read(args string, wantError bool) string {
	r.t.Helper()
	res, err := r.cs.CallTool(r.ctx, &mcp.CallToolParams{Name: "dagu_read", Arguments: json.RawMessage(args)})
	if err != nil {
		r.t.Fatalf("%s: %v", args, err)
	}
	raw, _ := json.Marshal(res.StructuredContent)
	if res.IsError != wantError {
		r.t.Fatalf("%s: isError %v: %s", args, res.IsError, raw)
	}
	return string(raw)
}

// expect reads args and fails unless the structured content matches
// every pattern.
func (r reader) expect(args string, patterns ...string) string {
	r.t.Helper()
	got := r.read(args, false)
	for _, p := range patterns {
		if !regexp.MustCompile(p).MatchString(got) {
			r.t.Errorf("%s: %.300s does not match %s", args, got, p)
		}
	}
	return got
}

// resourceRead is one resource a family is read through.
type resourceRead struct {
	uri, mimeType, scope, text string
}

// resource reads a resource and checks its one content and, in the
// 2026-07-28 era, its cache scope.
func (r reader) resource(want resourceRead) {
	r.t.Helper()
	res, err := r.cs.ReadResource(r.ctx, &mcp.ReadResourceParams{URI: want.uri})
	if err != nil {
		r.t.Fatalf("%s: %v", want.uri, err)
	}
	if len(res.Contents) != 1 || res.Contents[0].MIMEType != want.mimeType || !strings.Contains(res.Contents[0].Text, want.text) {
		r.t.Errorf("%s: %+v", want.uri, res.Contents)
	}
	if r.modern && res.CacheScope != want.scope {
		r.t.Errorf("%s: cacheScope %q, want %q (ttlMs %d)", want.uri, res.CacheScope, want.scope, res.TTLMs)
	}
}

// families are the target families with what their reads must hold, and
// one resource of each (the workbook family has none).
var families = []struct {
	name     string
	read     func(reader)
	resource resourceRead
}{
	{"dags", func(r reader) {
		r.expect(`{"target":"dags"}`, `"name":"failing_job"`)
		r.expect(`{"target":"dag","name":"failing_job"}`, `"name":"failing_job"`)
		r.expect(`{"target":"dag_spec","name":"failing_job"}`, `"spec":"[^"]*steps`)
		r.expect(`{"target":"dag_search","search":"echo"}`, `"results":`)
	}, resourceRead{"dagu://dags/failing_job/spec", "application/yaml", "private", "steps"}},
	{"runs", func(r reader) {
		r.expect(`{"target":"runs","query":"status=2"}`, `"items":\[\{`)
		r.expect(`{"target":"run","name":"failing_job","dagRunId":"latest"}`, `"statusLabel":"failed"`)
		r.expect(`{"target":"run_logs","name":"failing_job","dagRunId":"latest"}`, `"stepName":"explode"`)
		r.expect(`{"target":"step_log","name":"failing_job","dagRunId":"latest","stepName":"explode"}`, `disk full`)
	}, resourceRead{"dagu://runs/failing_job/latest", "application/json", "private", `"name":"failing_job"`}},
	{"foreach", func(r reader) {
		items := r.expect(`{"target":"foreach_items","name":"foreach_job","dagRunId":"latest","stepName":"each"}`, `"total":[1-9]`)
		first := regexp.MustCompile(`"item":("[^"]*")`).FindStringSubmatch(items)
		if first == nil {
			r.t.Fatalf("no item in %s", items)
		}
		r.expect(`{"target":"foreach_item","name":"foreach_job","dagRunId":"latest","stepName":"each","item":`+first[1]+`}`, `"item":`+regexp.QuoteMeta(first[1]))
	}, resourceRead{"dagu://runs/foreach_job/latest/steps/each/foreach", "application/json", "private", `"total":`}},
	{"wiki", func(r reader) {
		r.expect(`{"target":"wiki"}`, `"data":`)
		r.expect(`{"target":"wiki_page","workspace":"default","path":"runbooks/nightly-export"}`, `Nightly export`)
		r.expect(`{"target":"wiki_search","search":"failing"}`, `"results":\[\{`)
	}, resourceRead{"dagu://wiki/default/runbooks%2Fnightly-export", "text/markdown", "private", "Nightly export"}},
	{"reference", func(r reader) {
		r.expect(`{"target":"references"}`, `"read-tool"`)
		r.expect(`{"target":"reference","name":"read-tool"}`, `dagu://runs`)
	}, resourceRead{"dagu://reference/read-tool", "text/markdown", "public", "dagu://runs"}},
	{"workbook", func(r reader) {
		// The demo's host has no workbook: the contract's error is what
		// the application gets.
		got := r.read(`{"target":"workbook","path":"/nonexistent/report.xlsx"}`, true)
		if !strings.Contains(got, `"code":"resource_not_found"`) {
			r.t.Errorf("workbook: %s", got)
		}
	}, resourceRead{}},
}
