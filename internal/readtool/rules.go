// SPDX-License-Identifier: Apache-2.0

package readtool

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dagu-mcp-gateway/gateway/internal/reqctx"
)

// A person who signed in with the OpenID provider reads what the access
// rule that admitted them allows (reqctx.Info.Targets). A target the rule
// leaves out is refused as unauthorized naming the rule, whether asked by
// tools/call or by resources/read of its dagu:// URI, and the lists
// (tools/list's target enum and description, resources/list,
// resources/templates/list) leave it out as they leave out the targets the
// operator disabled. The reference topics, the gateway's own text, stay
// open to everyone.

// unavailable are the targets the request may not read: the operator's
// disabled ones and those its access rule leaves out, in the advertised
// order.
func (t *Tool) unavailable(ctx context.Context) []string {
	info, _ := reqctx.From(ctx)
	if info.Targets == nil {
		return t.disabled
	}
	var out []string
	for _, name := range targetOrder {
		if contains(t.disabled, name) || !openTargets[name] && !info.AllowsTarget(name) {
			out = append(out, name)
		}
	}
	return out
}

// Forbidden lists the targets the caller's access rule leaves out, in the
// advertised order (the reference topics are open to everyone); nil for a
// caller no rule admitted. The server's prompts and instructions leave
// them out too.
func (t *Tool) Forbidden(ctx context.Context) []string {
	info, _ := reqctx.From(ctx)
	if info.Targets == nil {
		return nil
	}
	var out []string
	for _, name := range targetOrder {
		if !openTargets[name] && !info.AllowsTarget(name) {
			out = append(out, name)
		}
	}
	return out
}

// refuseForbidden answers a read of a target the caller's access rule
// leaves out: unauthorized, naming the rule and what it allows.
func (t *Tool) refuseForbidden(ctx context.Context, c *call) *Error {
	info, _ := reqctx.From(ctx)
	if openTargets[c.target] || info.AllowsTarget(c.target) {
		return nil
	}
	var allowed []string
	for _, name := range targetOrder {
		if !contains(t.unavailable(ctx), name) {
			allowed = append(allowed, name)
		}
	}
	e := newError(CodeUnauthorized, fmt.Sprintf("The access rule %s, which admitted you, does not allow the target %s; it allows %s. Ask the gateway's operator if you need it.",
		info.Rule, c.target, strings.Join(allowed, ", "))).withDetail("rule", info.Rule)
	decorate(e, c)
	return e
}

// narrowLists is the server's receiving middleware that leaves out of a
// caller's lists the targets its access rule does not allow.
func (t *Tool) narrowLists(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if info, _ := reqctx.From(ctx); err != nil || info.Targets == nil {
			return res, err
		}
		switch r := res.(type) {
		case *mcp.ListToolsResult:
			return t.narrowTools(ctx, r), nil
		case *mcp.ListResourcesResult:
			return t.narrowResources(ctx, r), nil
		case *mcp.ListResourceTemplatesResult:
			return t.narrowTemplates(ctx, r), nil
		}
		return res, err
	}
}

// narrowTools replaces dagu_read's definition with the caller's.
func (t *Tool) narrowTools(ctx context.Context, r *mcp.ListToolsResult) *mcp.ListToolsResult {
	out := *r
	out.Tools = make([]*mcp.Tool, len(r.Tools))
	for i, tool := range r.Tools {
		if tool.Name == ToolName {
			narrowed := *t.definitions.of(t.unavailable(ctx))
			narrowed.Meta = tool.Meta
			tool = &narrowed
		}
		out.Tools[i] = tool
	}
	return &out
}

// narrowResources leaves out the entry points of unavailable targets.
func (t *Tool) narrowResources(ctx context.Context, r *mcp.ListResourcesResult) *mcp.ListResourcesResult {
	unavailable := t.unavailable(ctx)
	out := *r
	out.Resources = nil
	for _, res := range r.Resources {
		c, e := resolve(&input{values: map[string]string{fURI: res.URI}})
		if e == nil && !contains(unavailable, c.target) {
			out.Resources = append(out.Resources, res)
		}
	}
	return &out
}

// narrowTemplates leaves out the templates of unavailable targets; the
// catch-all dagu:// template stays (its reads are refused one by one).
func (t *Tool) narrowTemplates(ctx context.Context, r *mcp.ListResourceTemplatesResult) *mcp.ListResourceTemplatesResult {
	unavailable := t.unavailable(ctx)
	out := *r
	out.ResourceTemplates = nil
	for _, tmpl := range r.ResourceTemplates {
		if target, ok := templateTargets[tmpl.URITemplate]; !ok || !contains(unavailable, target) {
			out.ResourceTemplates = append(out.ResourceTemplates, tmpl)
		}
	}
	return &out
}

// templateTargets names the target of each row's resource template.
var templateTargets = func() map[string]string {
	out := map[string]string{}
	for i := range targetTable {
		for _, tmpl := range resourceTemplates(targetTable[i : i+1]) {
			out[tmpl.URITemplate] = targetTable[i].name
		}
	}
	return out
}()

// maxDefinitions bounds the tool definitions kept, one per set of
// unavailable targets (the access policy's rules make a few).
const maxDefinitions = 64

// definitions keeps dagu_read's definition per set of unavailable
// targets: building one renders the description and encodes the schema.
type definitions struct {
	mu   sync.Mutex
	byID map[string]*mcp.Tool
}

// of is the definition without the targets in unavailable.
func (d *definitions) of(unavailable []string) *mcp.Tool {
	id := strings.Join(unavailable, ",")
	d.mu.Lock()
	defer d.mu.Unlock()
	if def, ok := d.byID[id]; ok {
		return def
	}
	if d.byID == nil || len(d.byID) >= maxDefinitions {
		d.byID = map[string]*mcp.Tool{}
	}
	def := definitionWithout(unavailable)
	d.byID[id] = def
	return def
}
