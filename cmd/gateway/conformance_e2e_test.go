// SPDX-License-Identifier: Apache-2.0

package main

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
)

// TestConformanceEquivalents checks against the gateway's own tool,
// resources and prompts what the scenarios of the official conformance
// suite (tests/conformance) check against its fixtures, which only the
// suite's reference server has: each subtest is named after the scenario
// it stands in for, in both eras. Scenarios about what the gateway never
// does (images, audio, progress, logging, sampling, elicitation, binary
// resources, embedded resources in prompts) have no equivalent.
func TestConformanceEquivalents(t *testing.T) {
	t.Parallel()
	base := startServe(t, fakedagu.Options{RecordedOnly: true}, "--auth-token", goodToken)
	for _, era := range []string{"2026-07-28", "2025-11-25"} {
		t.Run(era, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			client := mcp.NewClient(&mcp.Implementation{Name: "conformance-equivalents", Version: "test"}, nil)
			transport := &mcp.StreamableClientTransport{Endpoint: base + "/mcp", HTTPClient: &http.Client{Transport: bearer{goodToken}}}
			cs, err := client.Connect(ctx, transport, &mcp.ClientSessionOptions{ProtocolVersion: era})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = cs.Close() })
			for _, eq := range conformanceEquivalents {
				t.Run(eq.scenario, func(t *testing.T) { eq.check(t, ctx, cs) })
			}
		})
	}
}

// conformanceEquivalents are the suite's fixture-bound scenarios, each
// checked against what the gateway serves.
var conformanceEquivalents = []struct {
	scenario string
	check    func(*testing.T, context.Context, *mcp.ClientSession)
}{
	{"tools-call-simple-text", func(t *testing.T, ctx context.Context, cs *mcp.ClientSession) {
		res := callDaguRead(t, ctx, cs, `{"target":"references"}`)
		if text, ok := res.Content[0].(*mcp.TextContent); res.IsError || !ok || text.Text == "" || res.StructuredContent == nil {
			t.Fatalf("a text result with structured content: %+v", res)
		}
	}},
	{"tools-call-mixed-content", func(t *testing.T, ctx context.Context, cs *mcp.ClientSession) {
		res := callDaguRead(t, ctx, cs, `{"target":"run","name":"failing_job","dagRunId":"latest"}`)
		_, text := res.Content[0].(*mcp.TextContent)
		link, isLink := res.Content[len(res.Content)-1].(*mcp.ResourceLink)
		if res.IsError || !text || !isLink || !strings.HasPrefix(link.URI, "dagu://runs/failing_job/") || link.MIMEType != "application/json" {
			t.Fatalf("text and a resource link: %+v", res.Content)
		}
	}},
	{"tools-call-error", func(t *testing.T, ctx context.Context, cs *mcp.ClientSession) {
		res := callDaguRead(t, ctx, cs, `{"target":"dagz"}`)
		raw, _ := json.Marshal(res.StructuredContent)
		if text, ok := res.Content[0].(*mcp.TextContent); !res.IsError || !ok || !strings.Contains(text.Text, "unsupported_read_target") ||
			!strings.Contains(string(raw), `"code":"unsupported_read_target"`) {
			t.Fatalf("isError with the contract's code in text and structured content: %+v %s", res.Content, raw)
		}
	}},
	{"resources-read-text", func(t *testing.T, ctx context.Context, cs *mcp.ClientSession) {
		res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "dagu://reference/read-tool"})
		if err != nil || len(res.Contents) != 1 || res.Contents[0].MIMEType != "text/markdown" || res.Contents[0].URI != "dagu://reference/read-tool" ||
			!strings.Contains(res.Contents[0].Text, "dagu://") {
			t.Fatalf("%v %+v", err, res)
		}
	}},
	{"resources-templates-read", func(t *testing.T, ctx context.Context, cs *mcp.ClientSession) {
		templates, err := cs.ListResourceTemplates(ctx, nil)
		if err != nil || !hasTemplate(templates.ResourceTemplates, "dagu://dags/{name}/spec") {
			t.Fatalf("templates: %v", err)
		}
		res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "dagu://dags/failing_job/spec"})
		if err != nil || len(res.Contents) != 1 || res.Contents[0].MIMEType != "application/yaml" || !strings.Contains(res.Contents[0].Text, "steps") {
			t.Fatalf("%v %+v", err, res)
		}
	}},
	{"prompts-get-simple", func(t *testing.T, ctx context.Context, cs *mcp.ClientSession) {
		checkPrompt(t, ctx, cs, "what_does_dag_do", map[string]string{"name": "failing_job"}, `"name":"failing_job"`)
	}},
	{"prompts-get-with-args", func(t *testing.T, ctx context.Context, cs *mcp.ClientSession) {
		checkPrompt(t, ctx, cs, "why_did_run_fail", map[string]string{"name": "failing_job", "dagRunId": "r1"}, `"dagRunId":"r1"`)
	}},
	{"completion-complete", func(t *testing.T, ctx context.Context, cs *mcp.ClientSession) {
		// Not offered, not advertised: the method answers -32601.
		if cs.InitializeResult().Capabilities.Completions != nil {
			t.Fatal("completions advertised")
		}
		_, err := cs.Complete(ctx, &mcp.CompleteParams{Ref: &mcp.CompleteReference{Type: "ref/prompt", Name: "why_did_run_fail"},
			Argument: mcp.CompleteParamsArgument{Name: "name", Value: "f"}})
		if rpc := (*jsonrpc.Error)(nil); !errors.As(err, &rpc) || rpc.Code != jsonrpc.CodeMethodNotFound {
			t.Fatalf("%v, want -32601", err)
		}
	}},
}

// callDaguRead calls dagu_read with raw arguments.
func callDaguRead(t *testing.T, ctx context.Context, cs *mcp.ClientSession, args string) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "dagu_read", Arguments: json.RawMessage(args)})
	if err != nil || len(res.Content) == 0 {
		t.Fatalf("%s: %v %+v", args, err, res)
	}
	return res
}

// hasTemplate reports whether a template of that URI template is listed.
func hasTemplate(templates []*mcp.ResourceTemplate, uri string) bool {
	for _, tmpl := range templates {
		if tmpl.URITemplate == uri {
			return true
		}
	}
	return false
}

// checkPrompt gets a prompt and checks that its one user message is text
// holding a dagu_read call with want.
func checkPrompt(t *testing.T, ctx context.Context, cs *mcp.ClientSession, name string, args map[string]string, want string) {
	t.Helper()
	res, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: name, Arguments: args})
	if err != nil || len(res.Messages) == 0 {
		t.Fatalf("%s: %v %+v", name, err, res)
	}
	text, ok := res.Messages[0].Content.(*mcp.TextContent)
	if res.Messages[0].Role != "user" || !ok || !strings.Contains(text.Text, "dagu_read") || !strings.Contains(text.Text, want) {
		t.Fatalf("%s: %+v", name, res.Messages[0])
	}
}
