// SPDX-License-Identifier: Apache-2.0

package readtool

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/dagu-mcp-gateway/gateway/internal/reqctx"
	"github.com/dagu-mcp-gateway/gateway/internal/testkit"
)

// devRule is the request of a person an access rule admitted that allows
// dags and runs only.
func devRule() reqctx.Info {
	return reqctx.Info{Caller: "https://idp.example#u1", Trust: reqctx.TrustVerified, Rule: "dev",
		Person: &reqctx.Person{Issuer: "https://idp.example", Subject: "u1"}, Targets: []string{"dags", "runs"}}
}

// ruleTool is a tool over stubs, with the operator's disabled targets.
func ruleTool(t *testing.T, disabled ...string) (*Tool, *stubUpstream) {
	t.Helper()
	up := &stubUpstream{}
	tool, err := New(Options{Upstream: up, References: stubRefs{}, Workbooks: &stubBooks{}, DisabledTargets: disabled})
	if err != nil {
		t.Fatal(err)
	}
	return tool, up
}

// sessionAs serves tool to a client whose every request carries info, as
// the front door would put it in the request's context.
func sessionAs(t *testing.T, tool *Tool, info reqctx.Info) *mcp.ClientSession {
	t.Helper()
	server := mcp.NewServer(&mcp.Implementation{Name: "test", Version: "test"}, nil)
	tool.Register(server, mcp.Meta{"ui": map[string]any{"resourceUri": "ui://test"}})
	ctx := reqctx.With(context.Background(), info)
	serverT, clientT := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, serverT, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "client", Version: "test"}, nil).Connect(context.Background(), clientT, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close(); _ = ss.Wait() })
	return cs
}

// TestRuleRefusesTheTargetsItLeavesOut: a read of a target the rule does
// not allow is unauthorized naming the rule, by tools/call and by
// resources/read of its URI, and reaches nothing; allowed targets and the
// reference topics read.
func TestRuleRefusesTheTargetsItLeavesOut(t *testing.T) {
	t.Parallel()
	tool, up := ruleTool(t)
	ctx := reqctx.With(context.Background(), devRule())
	for _, args := range []string{`{"target":"dag","name":"nightly"}`, `{"uri":"dagu://dags/nightly/spec"}`, `{"target":"run","name":"nightly","dagRunId":"latest"}`} {
		res, _ := tool.Handle(ctx, &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Arguments: json.RawMessage(args)}})
		e := errorOf(t, res)
		if e.Code != CodeUnauthorized || !strings.Contains(e.Message, "access rule dev") || e.Details["rule"] != "dev" {
			t.Errorf("%s: %+v, want unauthorized naming the rule dev", args, e)
		}
	}
	_, err := tool.ReadResource(ctx, &mcp.ReadResourceRequest{Params: &mcp.ReadResourceParams{URI: "dagu://dags/nightly/spec"}})
	var rpc *jsonrpc.Error
	if !errors.As(err, &rpc) || !strings.Contains(string(rpc.Data), `"code":"unauthorized"`) || !strings.Contains(rpc.Message, "access rule dev") {
		t.Errorf("resources/read of a forbidden URI: %v", err)
	}
	if len(up.calls) != 0 {
		t.Fatalf("a forbidden read reached Dagu: %d calls", len(up.calls))
	}
	for _, args := range []string{`{"target":"dags"}`, `{"target":"reference","name":"authoring"}`} {
		res, _ := tool.Handle(ctx, &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Arguments: json.RawMessage(args)}})
		if res.IsError {
			t.Errorf("%s: %+v", args, res.StructuredContent)
		}
	}
	res, _ := tool.Handle(ctx, &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Arguments: json.RawMessage(`{"target":"dagz"}`)}})
	if e := errorOf(t, res); e.Code != CodeUnsupportedReadTarget || strings.Contains(e.Message, "step_log") {
		t.Errorf("an unknown target's suggestions offer a forbidden one: %+v", e)
	}
}

// TestRuleNarrowsTheLists: tools/list's target enum and description,
// resources/list and resources/templates/list offer a rule's caller only
// what the rule allows (and never a target the operator disabled); a
// caller without a rule sees every enabled target.
func TestRuleNarrowsTheLists(t *testing.T) {
	t.Parallel()
	tool, _ := ruleTool(t, "workbook")
	narrowed := lists(t, sessionAs(t, tool, devRule()))
	full := lists(t, sessionAs(t, tool, reqctx.Info{Caller: "token", Trust: reqctx.TrustVerified}))
	if !slices.Equal(narrowed.enum, []string{"references", "reference", "dags", "runs"}) {
		t.Errorf("narrowed enum %v", narrowed.enum)
	}
	if slices.Contains(full.enum, "workbook") || !slices.Contains(full.enum, "step_log") {
		t.Errorf("full enum %v", full.enum)
	}
	if strings.Contains(narrowed.description, "step_log") || !strings.Contains(full.description, "step_log") {
		t.Errorf("the narrowed description names a forbidden target")
	}
	if narrowed.meta == nil {
		t.Errorf("the narrowed definition lost its _meta")
	}
	for _, uri := range narrowed.templates {
		if strings.Contains(uri, "/spec") || strings.Contains(uri, "/steps/") {
			t.Errorf("template %s of a forbidden target", uri)
		}
	}
	for _, uri := range narrowed.resources {
		if strings.HasPrefix(uri, "dagu://wiki") {
			t.Errorf("resource %s of a forbidden target", uri)
		}
	}
	if len(narrowed.templates) >= len(full.templates) || len(narrowed.resources) >= len(full.resources) {
		t.Errorf("nothing left out: templates %d of %d, resources %d of %d", len(narrowed.templates), len(full.templates), len(narrowed.resources), len(full.resources))
	}
	if !slices.Contains(narrowed.templates, "dagu://{+path}") || !slices.Contains(narrowed.resources, "dagu://dags") {
		t.Errorf("an allowed entry is missing: %v %v", narrowed.templates, narrowed.resources)
	}
	if tool.ListHints(reqctx.With(context.Background(), devRule())).CacheScope != scopePrivate {
		t.Errorf("a narrowed list is not private")
	}
}

// listed is what a session's lists offer.
type listed struct {
	enum                 []string
	description          string
	meta                 mcp.Meta
	templates, resources []string
}

func lists(t *testing.T, cs *mcp.ClientSession) listed {
	t.Helper()
	ctx := context.Background()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var out listed
	for _, tool := range tools.Tools {
		if tool.Name != ToolName {
			continue
		}
		out.description, out.meta = tool.Description, tool.Meta
		var schema struct {
			Properties struct {
				Target struct {
					Enum []string `json:"enum"`
				} `json:"target"`
			} `json:"properties"`
		}
		data, _ := json.Marshal(tool.InputSchema)
		if err := json.Unmarshal(data, &schema); err != nil {
			t.Fatal(err)
		}
		out.enum = schema.Properties.Target.Enum
	}
	templates, err := cs.ListResourceTemplates(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tmpl := range templates.ResourceTemplates {
		out.templates = append(out.templates, tmpl.URITemplate)
	}
	resources, err := cs.ListResources(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range resources.Resources {
		out.resources = append(out.resources, r.URI)
	}
	return out
}

// TestRuleReadsNameThePersonAndCountByRule: a read line of a signed-in
// person names sub, email and rule; the metrics count by rule, and no
// series names the person.
func TestRuleReadsNameThePersonAndCountByRule(t *testing.T) {
	t.Parallel()
	var logs testkit.LogBuffer
	reg := prometheus.NewRegistry()
	tool, err := New(Options{Upstream: &stubUpstream{}, References: stubRefs{}, Logger: slog.New(slog.NewJSONHandler(&logs, nil)), Registerer: reg})
	if err != nil {
		t.Fatal(err)
	}
	info := devRule()
	info.Person.Email = "ada@example.com"
	ctx := reqctx.With(context.Background(), info)
	for _, args := range []string{`{"target":"dags"}`, `{"target":"dag","name":"a"}`} {
		tool.Handle(ctx, &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Arguments: json.RawMessage(args)}})
	}
	lines := logs.JSONLines(t)
	if len(lines) != 2 {
		t.Fatalf("%d read lines", len(lines))
	}
	for _, line := range lines {
		if line["sub"] != "u1" || line["email"] != "ada@example.com" || line["rule"] != "dev" {
			t.Errorf("read line without the person: %v", line)
		}
	}
	for code, want := range map[string]float64{"ok": 1, "unauthorized": 1} {
		if got := testutil.ToFloat64(tool.metrics.byRule.WithLabelValues("dev", code)); got != want {
			t.Errorf("by rule dev, %s: %v, want %v", code, got, want)
		}
	}
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range families {
		for _, m := range f.GetMetric() {
			for _, l := range m.GetLabel() {
				if l.GetValue() == "u1" || l.GetValue() == "ada@example.com" {
					t.Errorf("%s has a label naming the person", f.GetName())
				}
			}
		}
	}
}
