// SPDX-License-Identifier: Apache-2.0

package readtool

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dagu-mcp-gateway/gateway/internal/reqctx"
)

// passthroughTool is a tool reading Dagu with callers' own keys, over
// stubs that record whether anything was read.
func passthroughTool(t *testing.T) (*Tool, *stubUpstream, *stubBooks) {
	t.Helper()
	up, books := &stubUpstream{}, &stubBooks{}
	tool, err := New(Options{Upstream: up, References: stubRefs{}, Workbooks: books, PassthroughCredentials: true})
	if err != nil {
		t.Fatal(err)
	}
	return tool, up, books
}

// callAs makes one tools/call with the credential and the front door's
// trust decision in the context (no decision when trust is "").
func callAs(tool *Tool, trust reqctx.Trust, args string) *mcp.CallToolResult {
	ctx := reqctx.WithCredential(context.Background(), "bogus_token_xyz")
	if trust != "" {
		ctx = reqctx.With(ctx, reqctx.Info{Caller: "unverified:192.0.2.1", Trust: trust})
	}
	res, _ := tool.Handle(ctx, &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Arguments: json.RawMessage(args)}})
	return res
}

// TestUnverifiedCallerReadsNothing: in passthrough a caller whose key Dagu
// did not accept gets no read of any kind (issue 20: a bogus bearer read
// the whole profile of any workbook), only the reference topics; nothing
// reaches Dagu or the file system for it.
func TestUnverifiedCallerReadsNothing(t *testing.T) {
	t.Parallel()
	reads := []string{
		`{"target":"workbook","path":"/data/payroll.xlsx"}`,
		`{"target":"dags"}`,
		`{"target":"run","name":"nightly","dagRunId":"latest"}`,
		`{"uri":"dagu://dags/nightly/spec"}`,
	}
	for _, tt := range []struct {
		trust reqctx.Trust
		code  Code
	}{
		{"", CodeResourceUnavailable},
		{reqctx.TrustUnchecked, CodeResourceUnavailable},
		{reqctx.TrustRefused, CodeUnauthenticated},
		{reqctx.TrustLacksSurface, CodeUnauthorized},
		{"verified-by-the-client", CodeResourceUnavailable},
	} {
		t.Run("trust="+string(tt.trust), func(t *testing.T) {
			t.Parallel()
			tool, up, books := passthroughTool(t)
			for _, args := range reads {
				if e := errorOf(t, callAs(tool, tt.trust, args)); e.Code != tt.code {
					t.Errorf("%s: code %s, want %s", args, e.Code, tt.code)
				}
			}
			if len(up.calls) != 0 || books.path != "" {
				t.Errorf("an unverified caller reached Dagu (%d calls) or a workbook (%q)", len(up.calls), books.path)
			}
			if res := callAs(tool, tt.trust, `{"target":"reference","name":"authoring"}`); res.IsError {
				t.Errorf("reference topics must stay open: %+v", res.StructuredContent)
			}
		})
	}
}

// TestVerifiedCallerReads: the verified decision lets every read through.
func TestVerifiedCallerReads(t *testing.T) {
	t.Parallel()
	tool, up, books := passthroughTool(t)
	for _, args := range []string{`{"target":"workbook","path":"/data/a.xlsx"}`, `{"target":"dags"}`} {
		if res := callAs(tool, reqctx.TrustVerified, args); res.IsError {
			t.Errorf("%s: %+v", args, res.StructuredContent)
		}
	}
	if len(up.calls) != 1 || books.path != "/data/a.xlsx" {
		t.Errorf("calls %d, workbook %q", len(up.calls), books.path)
	}
}

// TestUnverifiedResourceRead: dagu:// resources follow the same rule.
func TestUnverifiedResourceRead(t *testing.T) {
	t.Parallel()
	tool, up, _ := passthroughTool(t)
	ctx := reqctx.With(context.Background(), reqctx.Info{Trust: reqctx.TrustRefused})
	_, err := tool.ReadResource(ctx, &mcp.ReadResourceRequest{Params: &mcp.ReadResourceParams{URI: "dagu://dags"}})
	if err == nil || len(up.calls) != 0 {
		t.Fatalf("an unverified resource read: err %v, %d upstream calls", err, len(up.calls))
	}
}
