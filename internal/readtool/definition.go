// SPDX-License-Identifier: Apache-2.0

package readtool

import (
	"fmt"
	"html/template"
	"strings"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// descriptionTemplate teaches an agent to use the tool. Deprecated aliases
// are not mentioned. Its numbers are filled in from the constants the code
// enforces (see descriptionArgs); TestDescriptionNumbersAreEnforced checks.
const descriptionTemplate = `Read-only access to a Dagu workflow server: DAGs and their YAML specs, DAG-runs, run and step logs, foreach items, the wiki, full-text search, local Excel workbook profiles, and built-in reference guides. Nothing is ever started, changed or deleted.

Two ways to call it (never both):
- Target mode: {"target": "<target>", ...fields}. 
- URI mode: {"uri": "dagu://..."} with any query parameters inside the URI.

Targets (required fields first; [optional]):
- references; reference [name: authoring|tools|read-tool|change-tool|execute-tool|notifications, default authoring]
- dags [query: page, perPage 1-{{.ListPerPage}}, name, labels=a,b, sort=name|nextRun, order=asc|desc]
- dag name; dag_spec name; dag_search search [workspace, cursor, limit {{.SearchMin}}-{{.SearchMax}}]
- wiki [workspace, prefix, query: page, perPage, flat=true|false, sort=name|type|mtime, order]; wiki_page workspace, path (a concrete workspace such as default); wiki_search search [workspace, prefix, cursor, limit {{.SearchMin}}-{{.SearchMax}}]
- workbook path (absolute .xlsx/.xlsm on the gateway host) [password]
- runs [query: name, dagRunId (latest with name), status=0..{{.MaxRunStatus}} (repeat for several: 2=failed), fromDate, toDate (Unix seconds), limit 1-{{.RunsLimit}}, cursor, labels]. Without fromDate/toDate the list covers the last {{.RunWindowDays}} days.
- run name, dagRunId (or latest) [subRunId]
- run_logs name, dagRunId [query: tail 1-{{.LogLines}}; default: last {{.LogTail}} lines, at most {{.LogBudgetKiB}} KiB]
- step_log name, dagRunId, stepName [subRunId, item + bodyStepName, query: tail|head 1-{{.LogLines}}, offset>=1 with limit 1-{{.LogLines}}, limit alone, stream=stdout|stderr]. Default: last {{.LogTail}} lines of both streams, at most {{.LogBudgetKiB}} KiB each (hasMore says when more exists).
- foreach_items name, dagRunId, stepName [subRunId, query: status=not_started|running|succeeded|failed|aborted, page, perPage 1-{{.ForeachPerPage}}, parent]
- foreach_item name, dagRunId, stepName, item [subRunId]

URIs: dagu://reference[/{topic}], dagu://dags, dagu://dags/{name}/spec, dagu://wiki[/{workspace}[/{path}]], dagu://runs, dagu://runs/{name}/{dagRunId}[/logs], .../steps/{stepName}/logs, .../steps/{stepName}/foreach[/{item}[/steps/{bodyStepName}/logs]], and the same run forms under dagu://runs/{name}/{dagRunId}/sub/{subRunId}. Percent-escape each segment (a / inside a value is %2F).

Results: structured output {target, uri, data, references}; follow the URIs inside data (logUri, foreachUri, specUri, uri) to drill down. Errors carry a code (invalid_tool_input, invalid_resource_uri, unsupported_read_target, unsupported_resource, resource_not_found, resource_unavailable, unauthenticated, unauthorized, internal_error), a message, and the offending field.

Examples: {"target":"runs","query":"status=2"} -> {"target":"run","name":"nightly","dagRunId":"latest"} -> {"target":"step_log","name":"nightly","dagRunId":"<id>","stepName":"export","query":"stream=stderr&tail=200"}; {"uri":"dagu://dags/nightly/spec"}; {"target":"reference","name":"read-tool"} for the full guide.`

// descriptionArgs are the numbers the description states.
type descriptionArgs struct {
	ListPerPage, SearchMin, SearchMax, MaxRunStatus, RunsLimit     int
	RunWindowDays, LogLines, LogTail, LogBudgetKiB, ForeachPerPage int
}

// description is the tool description with its numbers filled in.
var description = func() string {
	var b strings.Builder
	template.Must(template.New("description").Parse(descriptionTemplate)).Execute(&b, descriptionArgs{
		ListPerPage: maxListPerPage, SearchMin: minSearchLimit, SearchMax: maxSearchLimit,
		MaxRunStatus: model.MaxRunStatus, RunsLimit: maxRunsLimit,
		RunWindowDays: int(model.DefaultRunWindow / (24 * time.Hour)), LogLines: maxLogLines,
		LogTail: model.DefaultLogTail, LogBudgetKiB: model.DefaultLogBudget >> 10, ForeachPerPage: maxForeachPerPage,
	})
	return b.String()
}()

// Definition returns the MCP tool definition: name, description, input
// schema (for discovery only; validation is the tool's own) and read-only,
// idempotent annotations.
func Definition() *mcp.Tool { return definitionWithout(nil) }

// definitionWithout is the definition with some targets switched off by
// the operator: they leave the target enum and the description.
func definitionWithout(disabled []string) *mcp.Tool {
	openWorld := false
	notDestructive := false
	schema := inputSchema()
	if len(disabled) > 0 {
		props := schema["properties"].(map[string]any)
		target := props["target"].(map[string]any)
		var enabled []string
		for _, name := range targetOrder {
			if !contains(disabled, name) {
				enabled = append(enabled, name)
			}
		}
		target["enum"] = enabled
	}
	return &mcp.Tool{
		Name:        ToolName,
		Title:       "Read Dagu",
		Description: describeWithout(disabled),
		InputSchema: schema,
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
			"limit": map[string]any{"type": "integer", "minimum": minSearchLimit, "maximum": maxSearchLimit,
				"description": fmt.Sprintf("Maximum search results (%d-%d).", minSearchLimit, maxSearchLimit)},
		},
	}
}

// targetMentions are the description's words for a target beyond its own
// "- target ..." line, dropped when the target is switched off.
var targetMentions = map[string][]string{
	tWorkbook: {" local Excel workbook profiles,"},
}

// describeWithout drops a disabled target's line and mentions from the
// description.
func describeWithout(disabled []string) string {
	if len(disabled) == 0 {
		return description
	}
	lines := strings.Split(description, "\n")
	kept := lines[:0]
	for _, line := range lines {
		if !startsWithTarget(line, disabled) {
			kept = append(kept, line)
		}
	}
	out := strings.Join(kept, "\n")
	for _, name := range disabled {
		for _, phrase := range targetMentions[name] {
			out = strings.ReplaceAll(out, phrase, "")
		}
	}
	return out
}

func startsWithTarget(line string, names []string) bool {
	for _, n := range names {
		if strings.HasPrefix(line, "- "+n+" ") {
			return true
		}
	}
	return false
}
