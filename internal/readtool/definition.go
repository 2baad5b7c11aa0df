// SPDX-License-Identifier: Apache-2.0

package readtool

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"text/template"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// descriptionTemplate teaches an agent to use the tool. Deprecated aliases
// are not mentioned. The target list is the rows' describe entries; its
// numbers are filled in from the constants the code enforces (see
// descriptionArgs); TestDescriptionNumbersAreEnforced checks.
const descriptionTemplate = `Read-only access to a Dagu workflow server: DAGs and their YAML specs, DAG-runs, run and step logs, foreach items, the wiki, full-text search, local Excel workbook profiles, and built-in reference guides. Nothing is ever started, changed or deleted.

Two ways to call it (never both):
- Target mode: {"target": "<target>", ...fields}. 
- URI mode: {"uri": "dagu://..."} with any query parameters inside the URI.

Targets (required fields first; [optional]):
{{.Targets}}
URIs: {{.URIs}}. Percent-escape each segment (a / inside a value is %2F).

Results: structured output {target, uri, data, references}; follow the URIs inside data (logUri, foreachUri, specUri, uri) to drill down. Errors carry a code (invalid_tool_input, invalid_resource_uri, unsupported_read_target, unsupported_resource, resource_not_found, resource_unavailable, unauthenticated, unauthorized, internal_error), a message, and the offending field.

Examples: {{.Examples}}.`

// descriptionArgs are what the description states beyond its fixed text:
// the target list and the numbers.
type descriptionArgs struct {
	Targets, URIs, Examples                                        string
	ListPerPage, SearchMin, SearchMax, MaxRunStatus, RunsLimit     int
	RunWindowDays, LogLines, LogTail, LogBudgetKiB, ForeachPerPage int
}

// descriptionText is the parsed description. The target entries hold
// placeholders too, so the target list is rendered first.
var descriptionText = template.Must(template.New("description").Parse(descriptionTemplate))

// description is the tool description with every target.
var description = describe(nil)

// describe renders the description without the targets the operator
// switched off: they leave the target list, and their mentions the text.
func describe(disabled []string) string {
	args := stated()
	args.Targets = renderText(targetList(targetTable, disabled), args)
	args.URIs = uriEntries(available(targetTable, disabled))
	args.Examples = exampleCalls(disabled)
	out := render(descriptionText, args)
	for _, name := range disabled {
		for _, phrase := range targets[name].mentions {
			out = strings.ReplaceAll(out, phrase, "")
		}
	}
	return out
}

// stated are the numbers the description states, from the constants the
// code enforces.
func stated() descriptionArgs {
	return descriptionArgs{
		ListPerPage: maxListPerPage, SearchMin: minSearchLimit, SearchMax: maxSearchLimit,
		MaxRunStatus: model.MaxRunStatus, RunsLimit: maxRunsLimit,
		RunWindowDays: runWindowDays, LogLines: maxLogLines,
		LogTail: model.DefaultLogTail, LogBudgetKiB: model.DefaultLogBudget >> 10, ForeachPerPage: maxForeachPerPage,
	}
}

// renderText fills a text's placeholders (a describe entry, the target
// list) with the stated numbers.
func renderText(text string, args descriptionArgs) string {
	return render(template.Must(template.New("text").Parse(text)), args)
}

func render(t *template.Template, args descriptionArgs) string {
	var b strings.Builder
	if err := t.Execute(&b, args); err != nil {
		panic("readtool: description: " + err.Error())
	}
	return b.String()
}

// targetList is the rows' describe entries: a line "- ..." per row that
// does not share its predecessor's line, entries on one line joined by
// "; ". Disabled targets are left out; a line left empty goes.
func targetList(rows []targetSpec, disabled []string) string {
	var lines [][]string
	line := -1
	for i := range rows {
		spec := &rows[i]
		if !spec.sharesLine || line < 0 {
			lines = append(lines, nil)
			line++
		}
		if !contains(disabled, spec.name) {
			lines[line] = append(lines[line], spec.describe)
		}
	}
	var b strings.Builder
	for _, entries := range lines {
		if len(entries) > 0 {
			b.WriteString("- " + strings.Join(entries, "; ") + "\n")
		}
	}
	return b.String()
}

// describedElsewhere marks a row whose patterns another row's "URIs:"
// entry names.
const describedElsewhere = "-"

// available are the rows not in disabled.
func available(rows []targetSpec, disabled []string) []targetSpec {
	var out []targetSpec
	for _, r := range rows {
		if !contains(disabled, r.name) {
			out = append(out, r)
		}
	}
	return out
}

// uriEntries is a "URIs:" line from the rows' entries, in table order,
// and the sub-run forms of every run pattern said once (when a row has
// run patterns).
func uriEntries(rows []targetSpec) string {
	var entries []string
	runForms := false
	for i := range rows {
		spec := &rows[i]
		switch spec.uris {
		case describedElsewhere:
		case "":
			for _, p := range spec.patterns {
				if !strings.HasPrefix(p.path, runRoot+subRunTail) {
					entries = append(entries, model.Scheme+p.path)
				}
			}
		default:
			entries = append(entries, spec.uris)
		}
		for _, p := range spec.patterns {
			runForms = runForms || strings.HasPrefix(p.path, runRoot+subRunTail)
		}
	}
	if runForms {
		entries = append(entries, "and the same run forms under "+model.Scheme+runRoot+subRunTail)
	}
	return strings.Join(entries, ", ")
}

// example is one example call of the description and the target it reads.
type example struct{ target, call string }

// exampleChain drills down from failed runs to a step's log; exampleOthers
// follow it. An example of a target not offered is left out.
var (
	exampleChain = []example{
		{tRuns, `{"target":"runs","query":"status=2"}`},
		{tRun, `{"target":"run","name":"nightly","dagRunId":"latest"}`},
		{tStepLog, `{"target":"step_log","name":"nightly","dagRunId":"<id>","stepName":"export","query":"stream=stderr&tail=200"}`},
	}
	exampleOthers = []example{
		{tDAGSpec, `{"uri":"dagu://dags/nightly/spec"}`},
		{tReference, `{"target":"reference","name":"read-tool"} for the full guide`},
	}
)

// exampleCalls is the description's examples without those of disabled
// targets.
func exampleCalls(disabled []string) string {
	keep := func(list []example) []string {
		var out []string
		for _, e := range list {
			if !contains(disabled, e.target) {
				out = append(out, e.call)
			}
		}
		return out
	}
	var parts []string
	if chain := keep(exampleChain); len(chain) > 0 {
		parts = append(parts, strings.Join(chain, " -> "))
	}
	return strings.Join(append(parts, keep(exampleOthers)...), "; ")
}

// Definition returns the MCP tool definition: name, description, input
// schema (for discovery only; validation is the tool's own) and read-only,
// idempotent annotations.
func Definition() *mcp.Tool { return definitionWithout(nil) }

// definitionWithout is the definition with some targets switched off by
// the operator: they leave the target enum and the description.
func definitionWithout(disabled []string) *mcp.Tool {
	desc := description
	if len(disabled) > 0 {
		desc = describe(disabled)
	}
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
	// Encoded once: the SDK re-encodes the schema of the called tool on
	// every tools/call (its x-mcp-header check), which costs a reflection
	// walk of a map but only a copy of raw bytes. encoding/json sorts map
	// keys, so tools/list shows the same bytes either way.
	var raw bytes.Buffer
	enc := json.NewEncoder(&raw)
	enc.SetEscapeHTML(false) // the wire escapes again; the bytes kept stay readable
	if err := enc.Encode(schema); err != nil {
		panic(fmt.Sprintf("readtool: input schema: %v", err))
	}
	return &mcp.Tool{
		Name:        ToolName,
		Title:       "Read Dagu",
		Description: desc,
		InputSchema: json.RawMessage(bytes.TrimSpace(raw.Bytes())),
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
