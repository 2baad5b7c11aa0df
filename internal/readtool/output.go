package readtool

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
)

// successText is the contract's success text for every target.
const successText = "Dagu read completed."

// envelopeReferences is the fixed `references` list of every success.
var envelopeReferences = []string{
	model.ReferenceURI("authoring"),
	model.ReferenceURI("tools"),
	model.ReferenceURI("notifications"),
}

// envelope is the exact top-level structured output of a successful read.
type envelope struct {
	Target       string          `json:"target"`
	URI          string          `json:"uri,omitempty"`
	Name         string          `json:"name,omitempty"`
	DAGRunID     string          `json:"dagRunId,omitempty"`
	SubRunID     string          `json:"subRunId,omitempty"`
	StepName     string          `json:"stepName,omitempty"`
	Item         string          `json:"item,omitempty"`
	BodyStepName string          `json:"bodyStepName,omitempty"`
	Workspace    string          `json:"workspace,omitempty"`
	Path         string          `json:"path,omitempty"`
	Prefix       string          `json:"prefix,omitempty"`
	Data         json.RawMessage `json:"data"`
	References   []string        `json:"references"`
}

// successResult renders a read's data as the contract's tool result.
func successResult(c *call, data any) (*mcp.CallToolResult, error) {
	raw, err := json.Marshal(data)
	if err != nil {
		return nil, err
	}
	env := envelope{Target: c.target, URI: c.uri, Data: raw, References: envelopeReferences}
	echo(c, &env)
	structured, err := json.Marshal(env)
	if err != nil {
		return nil, err
	}
	text, err := successMessage(c.target, raw)
	if err != nil {
		return nil, err
	}
	content := []mcp.Content{&mcp.TextContent{Text: text}}
	if c.uri != "" {
		content = append(content, resourceLink(c))
	}
	return &mcp.CallToolResult{Content: content, StructuredContent: json.RawMessage(structured)}, nil
}

// successMessage is "Dagu read completed." and, for dags, a blank line and
// the data as 2-space indented JSON.
func successMessage(target string, data []byte) (string, error) {
	if target != tDAGs {
		return successText, nil
	}
	var b bytes.Buffer
	b.Grow(len(successText) + 2 + len(data)*2)
	b.WriteString(successText)
	b.WriteString("\n\n")
	if err := json.Indent(&b, data, "", "  "); err != nil {
		return "", err
	}
	return b.String(), nil
}

// echo copies the input values the contract echoes at the top level.
func echo(c *call, env *envelope) {
	in := c.in
	switch c.target {
	case tStepLog, tForeachItems, tForeachItem:
		env.Name, env.DAGRunID, env.StepName = in.get(fName), in.get(fDAGRunID), in.get(fStepName)
		env.SubRunID, env.Item, env.BodyStepName = in.get(fSubRunID), in.get(fItem), in.get(fBodyStepName)
	case tWiki, tWikiPage, tWikiSearch:
		env.Workspace, env.Path, env.Prefix = in.get(fWorkspace), in.get(fPath), c.effectivePrefix()
	case tWorkbook:
		env.Path = in.get(fPath)
	}
}

// errorResult renders a tool error: isError, the error object as
// structured output, and its message as text.
func errorResult(e *Error) *mcp.CallToolResult {
	return &mcp.CallToolResult{
		IsError:           true,
		Content:           []mcp.Content{&mcp.TextContent{Text: string(e.Code) + ": " + e.Message}},
		StructuredContent: e,
	}
}

// linkSpec is one row of the contract's resource-link table.
type linkSpec struct {
	name, mimeType, title string
}

func resourceLink(c *call) *mcp.ResourceLink {
	spec := linkFor(c)
	return &mcp.ResourceLink{URI: c.uri, Name: spec.name, MIMEType: spec.mimeType, Title: spec.title}
}

// linkFor picks the resource-link name and MIME type for the call's URI.
func linkFor(c *call) linkSpec {
	const jsonType = "application/json"
	sub := c.in.has(fSubRunID)
	subName := func(root, child, title string) linkSpec {
		if sub {
			return linkSpec{child, jsonType, "Sub DAG-run " + title}
		}
		return linkSpec{root, jsonType, "DAG-run " + title}
	}
	switch c.target {
	case tReferences:
		return linkSpec{"dagu_references", jsonType, "Dagu references"}
	case tReference:
		return linkSpec{"dagu_reference", "text/markdown", "Dagu reference"}
	case tDAGs:
		return linkSpec{"dags", jsonType, "DAGs"}
	case tDAGSpec:
		return linkSpec{"dag_spec", "application/yaml", "DAG spec"}
	case tRuns:
		return linkSpec{"dag_runs", jsonType, "DAG-runs"}
	case tRun:
		return subName("dag_run", "sub_dag_run", "details")
	case tRunLogs:
		return linkSpec{"dag_run_logs", jsonType, "DAG-run logs"}
	case tStepLog:
		if c.in.has(fItem) {
			return subName("dag_run_foreach_step_log", "sub_dag_run_foreach_step_log", "foreach body step log")
		}
		return subName("dag_run_step_log", "sub_dag_run_step_log", "step log")
	case tForeachItems:
		return subName("dag_run_foreach_items", "sub_dag_run_foreach_items", "foreach items")
	case tForeachItem:
		return subName("dag_run_foreach_item", "sub_dag_run_foreach_item", "foreach item")
	case tWiki:
		return linkSpec{"wiki", jsonType, "Wiki"}
	case tWikiPage:
		return linkSpec{"wiki_page", "text/markdown", "Wiki page"}
	}
	return linkSpec{strings.ReplaceAll(c.target, "-", "_"), jsonType, ""}
}
