// SPDX-License-Identifier: Apache-2.0

package readtool

import (
	"context"
	"encoding/json"
	"slices"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
)

// MCP resources. Every dagu:// URI a read returns (data URIs and resource
// links) can be read with resources/read, through the same parser, read
// plan and errors as dagu_read in URI mode. Reference topics and wiki
// pages are served as Markdown, DAG specs as YAML, everything else as the
// read's JSON data.

// resourceShape is one resource template: a dagu:// URI shape and its row
// of the contract's resource-link table.
type resourceShape struct {
	template, name, title, mimeType, description string
}

// runShapes are the run-family shapes; each also exists under a sub-run
// (".../sub/{subRunId}..."), except the scheduler log.
var runShapes = []resourceShape{
	{"", "dag_run", "DAG-run details", mimeJSON, "A DAG-run with its steps, status and links to logs; dagRunId may be latest."},
	{"/steps/{stepName}/logs{?query*}", "dag_run_step_log", "DAG-run step log", mimeJSON, "A window of a step's stdout and stderr (query: tail, head, offset, limit, stream)."},
	{"/steps/{stepName}/foreach{?query*}", "dag_run_foreach_items", "DAG-run foreach items", mimeJSON, "The items of a foreach step (query: status, page, perPage, parent)."},
	{"/steps/{stepName}/foreach/{item}", "dag_run_foreach_item", "DAG-run foreach item", mimeJSON, "One foreach item and its body steps."},
	{"/steps/{stepName}/foreach/{item}/steps/{bodyStepName}/logs{?query*}", "dag_run_foreach_step_log", "DAG-run foreach body step log", mimeJSON, "A window of a foreach body step's log."},
}

// resourceShapes lists every dagu:// shape, in the order of the contract's
// URI table.
var resourceShapes = func() []resourceShape {
	out := []resourceShape{
		{"dagu://reference/{topic}", "dagu_reference", "Dagu reference", mimeMarkdown, "A built-in reference topic (authoring, tools, read-tool, ...)."},
		{"dagu://dags{?query*}", "dags", "DAGs", mimeJSON, "The DAG list (query: page, perPage, name, labels, sort, order)."},
		{"dagu://dags/{name}/spec", "dag_spec", "DAG spec", mimeYAML, "A DAG's YAML definition."},
		{"dagu://runs{?query*}", "dag_runs", "DAG-runs", mimeJSON, "DAG-runs, the last 7 days unless fromDate/toDate say otherwise (query: name, dagRunId, status, fromDate, toDate, limit, cursor, labels)."},
		{"dagu://runs/{name}/{dagRunId}/logs{?query*}", "dag_run_logs", "DAG-run logs", mimeJSON, "A run's scheduler log window and which step logs exist (query: tail)."},
	}
	for _, r := range runShapes {
		root, sub := r, r
		root.template = "dagu://runs/{name}/{dagRunId}" + r.template
		sub.template = "dagu://runs/{name}/{dagRunId}/sub/{subRunId}" + r.template
		sub.name, sub.title = "sub_"+r.name, "Sub "+r.title
		out = append(out, root, sub)
	}
	return append(out,
		resourceShape{"dagu://wiki{?query*}", "wiki", "Wiki", mimeJSON, "The wiki of every workspace as a tree or flat list (query: page, perPage, flat, sort, order, prefix)."},
		resourceShape{"dagu://wiki/{workspace}{?query*}", "wiki_workspace", "Wiki workspace", mimeJSON, "The wiki of one workspace."},
		resourceShape{"dagu://wiki/{workspace}/{path}", "wiki_page", "Wiki page", mimeMarkdown, "One wiki page; the path is one segment (a / inside it is %2F)."},
	)
}()

// anyResource catches every other dagu:// URI, so a malformed or unknown
// one is answered with the contract's own error code in the error data.
var anyResource = resourceShape{"dagu://{+path}", "dagu_resource", "Any dagu:// resource", "",
	"Any URI dagu_read accepts in URI mode; see dagu://reference/read-tool."}

// RegisterResources adds the resource templates, the stable entry points
// (reference topics, dagu://dags, dagu://runs, dagu://wiki) and their one
// read handler to an MCP server.
func (t *Tool) RegisterResources(s *mcp.Server) {
	// slices.Concat copies: append could write anyResource into the shared
	// backing array of resourceShapes, a data race between servers built
	// at once.
	for _, r := range slices.Concat(resourceShapes, []resourceShape{anyResource}) {
		s.AddResourceTemplate(&mcp.ResourceTemplate{
			URITemplate: r.template, Name: r.name, Title: r.title, MIMEType: r.mimeType, Description: r.description,
		}, t.ReadResource)
	}
	for _, r := range t.entryPoints() {
		s.AddResource(r, t.ReadResource)
	}
}

// entryPoints are the resources resources/list shows: the reference topics
// and the collections, never individual runs.
func (t *Tool) entryPoints() []*mcp.Resource {
	out := []*mcp.Resource{{URI: model.ReferencesURI(), Name: "dagu_references", Title: "Dagu references", MIMEType: mimeJSON,
		Description: "The list of reference topics."}}
	for _, topic := range t.refs.Topics() {
		out = append(out, &mcp.Resource{URI: topic.URI, Name: "dagu_reference_" + topic.Name, Title: "Dagu reference: " + topic.Name,
			MIMEType: mimeMarkdown, Description: topic.Title})
	}
	return append(out,
		&mcp.Resource{URI: model.DAGsURI(), Name: "dags", Title: "DAGs", MIMEType: mimeJSON, Description: "The first page of the DAG list."},
		&mcp.Resource{URI: model.RunsURI(), Name: "dag_runs", Title: "DAG-runs", MIMEType: mimeJSON, Description: "The DAG-runs of the last 7 days."},
		&mcp.Resource{URI: model.WikiURI(""), Name: "wiki", Title: "Wiki", MIMEType: mimeJSON, Description: "The wiki tree of every workspace."},
	)
}

// ReadResource answers resources/read for a dagu:// URI by the URI-mode
// read; a failure is a JSON-RPC error whose data is the contract's error
// object (code, message, field, uri, details).
func (t *Tool) ReadResource(ctx context.Context, req *mcp.ReadResourceRequest) (_ *mcp.ReadResourceResult, err error) {
	defer t.traceResource(&ctx, req, &err)()
	start := time.Now()
	uri := ""
	var extra *mcp.RequestExtra
	if req != nil && req.Params != nil {
		uri, extra = req.Params.URI, req.Extra
	}
	ctx = t.withRequestInfo(ctx, extra, methodResourceRead)
	ctx, cancel := t.withDeadline(ctx)
	defer cancel()
	var c *call
	var data any
	e := t.limits.admit(ctx)
	if e == nil {
		c, data, e = t.readURI(ctx, uri)
	}
	if e != nil {
		t.observe(ctx, c, errorResult(e), time.Since(start))
		return nil, resourceError(e)
	}
	t.observe(ctx, c, &mcp.CallToolResult{}, time.Since(start))
	text, mimeType, err := resourceBody(c, data)
	if err != nil {
		return nil, resourceError(internalError())
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: mimeType, Text: text}}}, nil
}

// readURI resolves and reads a URI exactly as dagu_read does in URI mode.
func (t *Tool) readURI(ctx context.Context, uri string) (*call, any, *Error) {
	in := &input{values: map[string]string{fURI: uri}}
	if e := checkLimits(in); e != nil {
		e.Code, e.URI = CodeInvalidResourceURI, uri
		return nil, nil, e
	}
	c, e := resolve(in)
	if e != nil {
		return nil, nil, e
	}
	if e := t.refuseDisabled(c); e != nil {
		return c, nil, e
	}
	if e := t.refuseUnverified(ctx, c); e != nil {
		return c, nil, e
	}
	data, e := t.read(ctx, c)
	return c, data, e
}

// resourceBody is the resource's content: Markdown for reference topics and
// wiki pages, YAML for DAG specs, the JSON data otherwise.
func resourceBody(c *call, data any) (text, mimeType string, err error) {
	switch d := data.(type) {
	case *model.ReferenceTopic:
		return d.Text, mimeMarkdown, nil
	case *model.WikiPage:
		return d.Content, mimeMarkdown, nil
	case *model.DAGSpec:
		return d.Spec, mimeYAML, nil
	}
	raw, err := json.Marshal(data)
	return string(raw), mimeJSON, err
}

// resourceErrorCodes maps contract codes to JSON-RPC codes: a resource that
// does not exist and the caller's mistakes are invalid params (the current
// MCP revision's code for an unknown resource), everything else is an
// internal error; data always carries the contract's own code.
var resourceErrorCodes = map[Code]int64{
	CodeResourceNotFound:    jsonrpc.CodeInvalidParams,
	CodeInvalidResourceURI:  jsonrpc.CodeInvalidParams,
	CodeUnsupportedResource: jsonrpc.CodeInvalidParams,
	CodeInvalidToolInput:    jsonrpc.CodeInvalidParams,
}

func resourceError(e *Error) error {
	code, ok := resourceErrorCodes[e.Code]
	if !ok {
		code = jsonrpc.CodeInternalError
	}
	data, _ := json.Marshal(e)
	return &jsonrpc.Error{Code: code, Message: e.Message, Data: data}
}
