// SPDX-License-Identifier: Apache-2.0

package readtool

import (
	"context"
	"encoding/json"
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

// resourceTemplates are the templates of every row's patterns that have a
// description, in table order; a pattern of a target that takes a query
// ends in {?query*}. Each call makes new templates, so servers built at
// once share nothing.
func resourceTemplates(rows []targetSpec) []*mcp.ResourceTemplate {
	var out []*mcp.ResourceTemplate
	for i := range rows {
		spec := &rows[i]
		for _, p := range spec.patterns {
			if p.description != "" {
				out = append(out, templateOf(spec, p))
			}
		}
	}
	return out
}

func templateOf(spec *targetSpec, p uriPattern) *mcp.ResourceTemplate {
	uri := model.Scheme + p.path
	if spec.reader.queryKeys() != nil {
		uri += "{?query*}"
	}
	name, title := p.link.name, p.link.title
	if p.templateName != "" {
		name, title = p.templateName, p.templateTitle
	}
	return &mcp.ResourceTemplate{URITemplate: uri, Name: name, Title: title, MIMEType: p.link.mimeType, Description: p.description}
}

// anyResource catches every other dagu:// URI, so a malformed or unknown
// one is answered with the contract's own error code in the error data.
func anyResource() *mcp.ResourceTemplate {
	return &mcp.ResourceTemplate{URITemplate: "dagu://{+path}", Name: "dagu_resource", Title: "Any dagu:// resource",
		Description: "Any URI dagu_read accepts in URI mode; see dagu://reference/read-tool."}
}

// RegisterResources adds the resource templates, the stable entry points
// (reference topics, dagu://dags, dagu://runs, dagu://wiki) and their one
// read handler to an MCP server.
func (t *Tool) RegisterResources(s *mcp.Server) {
	for _, r := range append(resourceTemplates(targetTable), anyResource()) {
		s.AddResourceTemplate(r, t.ReadResource)
	}
	for _, r := range t.entryPoints() {
		s.AddResource(r, t.ReadResource)
	}
}

// entryPoints are the resources resources/list shows: the collections the
// rows list and the reference topics, never individual runs.
func (t *Tool) entryPoints() []*mcp.Resource {
	var out []*mcp.Resource
	for i := range targetTable {
		for _, p := range targetTable[i].patterns {
			if p.entry != "" {
				out = append(out, &mcp.Resource{URI: p.build(nil), Name: p.link.name, Title: p.link.title,
					MIMEType: p.link.mimeType, Description: p.entry})
			}
		}
	}
	for _, topic := range t.refs.Topics() {
		out = append(out, &mcp.Resource{URI: topic.URI, Name: "dagu_reference_" + topic.Name, Title: "Dagu reference: " + topic.Name,
			MIMEType: mimeMarkdown, Description: topic.Title})
	}
	return out
}

// ReadResource answers resources/read for a dagu:// URI by the URI-mode
// read, with cache hints that say how long the gateway itself would keep
// the answer (cacheHints); a failure is a JSON-RPC error of the MCP
// revision the request speaks, whose data is the contract's error object
// (code, message, field, uri, details).
func (t *Tool) ReadResource(ctx context.Context, req *mcp.ReadResourceRequest) (res *mcp.ReadResourceResult, err error) {
	defer t.traceResource(&ctx, req, &err)()
	start := time.Now()
	var c *call
	uri, version := "", ""
	if req != nil && req.Params != nil {
		uri, version = req.Params.URI, req.ProtocolVersion()
	}
	// Like a tool call, a read that panics answers internal_error instead
	// of taking the gateway down (the MCP SDK does not recover handlers).
	defer func() {
		if p := recover(); p != nil {
			e := t.panicked(ctx, p, c)
			t.observe(ctx, c, errorResult(e), time.Since(start))
			res, err = nil, resourceError(e, version)
		}
	}()
	ctx = t.withRequestInfo(ctx, methodResourceRead)
	ctx, cancel := t.withDeadline(ctx)
	defer cancel()
	var data any
	e := t.admit(ctx)
	release := func() {}
	if e == nil {
		release, e = t.acquire(ctx)
	}
	defer release()
	if e == nil {
		c, data, e = t.readURI(ctx, uri)
	}
	if e != nil {
		t.observe(ctx, c, errorResult(e), time.Since(start))
		return nil, resourceError(e, version)
	}
	text, mimeType, err := resourceBody(c, data)
	if err != nil {
		// Logged with its cause, as a tool call's encoding failure is.
		e = classify(err, c)
		t.observe(ctx, c, errorResult(e), time.Since(start))
		return nil, resourceError(e, version)
	}
	t.observe(ctx, c, &mcp.CallToolResult{}, time.Since(start))
	return &mcp.ReadResourceResult{Cacheable: t.cacheHints(c, data),
		Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: mimeType, Text: text}}}, nil
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
	if e := t.refuseForbidden(ctx, c); e != nil {
		return c, nil, e
	}
	if e := t.refuseUnverified(ctx, c); e != nil {
		return c, nil, e
	}
	data, e := t.read(ctx, c)
	if e == nil {
		data, e = t.fitAnswer(ctx, c, data)
	}
	return c, data, e
}

// resourceBody is the resource's content: Markdown for reference topics and
// wiki pages, YAML for DAG specs, the JSON data otherwise.
func resourceBody(c *call, data any) (text, mimeType string, err error) {
	switch d := unwrapped(data).(type) {
	case *model.ReferenceTopic:
		return d.Text, mimeMarkdown, nil
	case *model.WikiPage:
		return d.Content, mimeMarkdown, nil
	case *model.DAGSpec:
		return d.Spec, mimeYAML, nil
	}
	_, raw, err := encode(data)
	return string(raw), mimeJSON, err
}

// resourceErrorCodes maps contract codes to JSON-RPC codes: the caller's
// mistakes are invalid params, a resource that does not exist is
// resourceNotFound's, everything else is an internal error; data always
// carries the contract's own error object.
var resourceErrorCodes = map[Code]int64{
	CodeInvalidResourceURI:  jsonrpc.CodeInvalidParams,
	CodeUnsupportedResource: jsonrpc.CodeInvalidParams,
	CodeInvalidToolInput:    jsonrpc.CodeInvalidParams,
}

// codeResourceNotFound is MCP's code for a resource that does not exist
// up to revision 2025-11-25; from 2026-07-28 (SEP-2164) it is invalid
// params.
const codeResourceNotFound = -32002

// protocol20260728 is the first MCP revision whose missing resource is
// invalid params; revisions are dates, so they order as strings.
const protocol20260728 = "2026-07-28"

// resourceNotFound is the JSON-RPC code of a missing resource in the MCP
// revision version the request speaks.
func resourceNotFound(version string) int64 {
	if version >= protocol20260728 {
		return jsonrpc.CodeInvalidParams
	}
	return codeResourceNotFound
}

// resourceError is e as a JSON-RPC error of revision version.
func resourceError(e *Error, version string) error {
	code, ok := resourceErrorCodes[e.Code]
	switch {
	case e.Code == CodeResourceNotFound:
		code = resourceNotFound(version)
	case !ok:
		code = jsonrpc.CodeInternalError
	}
	data, _ := json.Marshal(e)
	return &jsonrpc.Error{Code: code, Message: e.Message, Data: data}
}
