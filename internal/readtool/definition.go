package readtool

import "github.com/modelcontextprotocol/go-sdk/mcp"

// description teaches an agent to use the tool. Deprecated aliases are not
// mentioned.
const description = `Read-only access to a Dagu workflow server: DAGs and their YAML specs, DAG-runs, run and step logs, foreach items, the wiki, full-text search, local Excel workbook profiles, and built-in reference guides. Nothing is ever started, changed or deleted.

Two ways to call it (never both):
- Target mode: {"target": "<target>", ...fields}. 
- URI mode: {"uri": "dagu://..."} with any query parameters inside the URI.

Targets (required fields first; [optional]):
- references; reference [name: authoring|tools|read-tool|change-tool|execute-tool|notifications, default authoring]
- dags [query: page, perPage 1-200, name, labels=a,b, sort=name|nextRun, order=asc|desc]
- dag name; dag_spec name; dag_search search [workspace, cursor, limit 1-50]
- wiki [workspace, prefix, query: page, perPage, flat=true|false, sort=name|type|mtime, order]; wiki_page workspace, path (a concrete workspace such as default); wiki_search search [workspace, prefix, cursor, limit 1-50]
- workbook path (absolute .xlsx/.xlsm on the gateway host) [password]
- runs [query: name, dagRunId (latest with name), status=0..8 (repeat for several: 2=failed), fromDate, toDate (Unix seconds), limit 1-500, cursor, labels]. Without fromDate/toDate the list covers the last 7 days.
- run name, dagRunId (or latest) [subRunId]
- run_logs name, dagRunId [query: tail 1-10000; default: last 200 lines, at most 32 KiB]
- step_log name, dagRunId, stepName [subRunId, item + bodyStepName, query: tail|head 1-10000, offset>=1 with limit 1-10000, limit alone, stream=stdout|stderr]. Default: last 200 lines of both streams, at most 32 KiB each (hasMore says when more exists).
- foreach_items name, dagRunId, stepName [subRunId, query: status=not_started|running|succeeded|failed|aborted, page, perPage 1-500, parent]
- foreach_item name, dagRunId, stepName, item [subRunId]

URIs: dagu://reference[/{topic}], dagu://dags, dagu://dags/{name}/spec, dagu://wiki[/{workspace}[/{path}]], dagu://runs, dagu://runs/{name}/{dagRunId}[/logs], .../steps/{stepName}/logs, .../steps/{stepName}/foreach[/{item}[/steps/{bodyStepName}/logs]], and the same run forms under dagu://runs/{name}/{dagRunId}/sub/{subRunId}. Percent-escape each segment (a / inside a value is %2F).

Results: structured output {target, uri, data, references}; follow the URIs inside data (logUri, foreachUri, specUri, uri) to drill down. Errors carry a code (invalid_tool_input, invalid_resource_uri, unsupported_read_target, unsupported_resource, resource_not_found, resource_unavailable, unauthenticated, unauthorized, internal_error), a message, and the offending field.

Examples: {"target":"runs","query":"status=2"} -> {"target":"run","name":"nightly","dagRunId":"latest"} -> {"target":"step_log","name":"nightly","dagRunId":"<id>","stepName":"export","query":"stream=stderr&tail=200"}; {"uri":"dagu://dags/nightly/spec"}; {"target":"reference","name":"read-tool"} for the full guide.`

// Definition returns the MCP tool definition: name, description, input
// schema (for discovery only; validation is the tool's own) and read-only,
// idempotent annotations.
func Definition() *mcp.Tool {
	openWorld := false
	notDestructive := false
	return &mcp.Tool{
		Name:        ToolName,
		Title:       "Read Dagu",
		Description: description,
		InputSchema: inputSchema(),
		Annotations: &mcp.ToolAnnotations{
			Title:           "Read Dagu",
			ReadOnlyHint:    true,
			IdempotentHint:  true,
			DestructiveHint: &notDestructive,
			OpenWorldHint:   &openWorld,
		},
	}
}

func inputSchema() map[string]any {
	str := func(desc string) map[string]any { return map[string]any{"type": "string", "description": desc} }
	return map[string]any{
		"type": "object",
		"properties": map[string]any{
			"target": map[string]any{
				"type":        "string",
				"description": "Read target (target mode).",
				"enum":        targetOrder,
			},
			"uri":          str("dagu:// resource URI (URI mode; query parameters go inside it)."),
			"name":         str("DAG name, or reference topic for target reference."),
			"dagRunId":     str("DAG-run ID, or latest."),
			"subRunId":     str("Sub DAG-run ID under the root run named by name and dagRunId."),
			"stepName":     str("Step name inside the DAG-run."),
			"item":         str("Foreach item path: the index, or parent.index for nested foreach items."),
			"bodyStepName": str("Body step name or ID inside a foreach item (step_log, with item)."),
			"query":        str("URL query string without a leading ?, e.g. tail=100&stream=stderr."),
			"workspace":    str("Workspace: all (default for lists and searches), default, or a name."),
			"path":         str("Wiki page path without .md, or an absolute workbook file path."),
			"password":     str("Password of a protected workbook (used verbatim, never logged)."),
			"search":       str("Search text (literal, case-insensitive)."),
			"prefix":       str("Wiki page path prefix."),
			"cursor":       str("Continuation cursor from a previous search result."),
			"limit":        map[string]any{"type": "integer", "minimum": 1, "maximum": 50, "description": "Maximum search results (1-50)."},
		},
	}
}
