package readtool

import (
	"bytes"
	"encoding/json"

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
	text, err := successMessage(c.spec, raw)
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
func successMessage(spec *targetSpec, data []byte) (string, error) {
	if !spec.dataInText {
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
	slots := map[string]*string{
		fName: &env.Name, fDAGRunID: &env.DAGRunID, fSubRunID: &env.SubRunID, fStepName: &env.StepName,
		fItem: &env.Item, fBodyStepName: &env.BodyStepName, fWorkspace: &env.Workspace, fPath: &env.Path, fPrefix: &env.Prefix,
	}
	for _, field := range c.spec.echo {
		*slots[field] = echoValue(c, field)
	}
}

// echoValue is the echoed value of a field; the wiki prefix may come from
// the query.
func echoValue(c *call, field string) string {
	if field == fPrefix {
		return c.effectivePrefix()
	}
	return c.in.get(field)
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
	spec := c.spec.link(c)
	return &mcp.ResourceLink{URI: c.uri, Name: spec.name, MIMEType: spec.mimeType, Title: spec.title}
}

// fixedLink is a target's one resource-link row.
func fixedLink(name, mimeType, title string) func(*call) linkSpec {
	return func(*call) linkSpec { return linkSpec{name, mimeType, title} }
}

// runLink picks the root-run or sub-run row of a run-family link.
func runLink(root, sub, title string) func(*call) linkSpec {
	return func(c *call) linkSpec {
		if c.in.has(fSubRunID) {
			return linkSpec{sub, mimeJSON, "Sub DAG-run " + title}
		}
		return linkSpec{root, mimeJSON, "DAG-run " + title}
	}
}

var (
	stepLogRows    = runLink("dag_run_step_log", "sub_dag_run_step_log", "step log")
	bodyStepLogRow = runLink("dag_run_foreach_step_log", "sub_dag_run_foreach_step_log", "foreach body step log")
)

// stepLogLink distinguishes a step's log from a foreach body step's log.
func stepLogLink(c *call) linkSpec {
	if c.in.has(fItem) {
		return bodyStepLogRow(c)
	}
	return stepLogRows(c)
}
