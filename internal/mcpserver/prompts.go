// SPDX-License-Identifier: Apache-2.0

package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
)

// Prompts: short recipes of dagu_read calls for the reads agents do most.
// Each fills the caller's arguments into concrete tool arguments; nothing
// is read until the agent makes the calls.

// promptSpec is one prompt: its arguments and the recipe it renders.
type promptSpec struct {
	prompt *mcp.Prompt
	render func(args map[string]string) string
	// targets are the dagu_read targets the recipe reads: a caller whose
	// access rule leaves one out is not offered the prompt.
	targets []string
}

// callJSONText renders one dagu_read argument object as a model reads it:
// without HTML escaping, so <step> and & stay themselves.
func callJSONText(fields ...string) string {
	m := map[string]string{}
	for i := 0; i+1 < len(fields); i += 2 {
		m[fields[i]] = fields[i+1]
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(m) // a map of strings always encodes
	return strings.TrimSuffix(b.String(), "\n")
}

// runWindowDays is the runs target's default window, in days.
const runWindowDays = int(model.DefaultRunWindow / (24 * time.Hour))

var promptSpecs = []promptSpec{
	{
		prompt: &mcp.Prompt{
			Name: "why_did_run_fail", Title: "Why did a DAG-run fail?",
			Description: "Read a run, the logs of its failed steps and its scheduler log, then explain the failure.",
			Arguments: []*mcp.PromptArgument{
				{Name: "name", Title: "DAG name", Description: "The DAG whose run failed.", Required: true},
				{Name: "dagRunId", Title: "DAG-run ID", Description: "The run; latest (the default) reads the most recent one."},
			},
		},
		render: func(a map[string]string) string {
			id := orDefault(a["dagRunId"], "latest")
			return strings.Join([]string{
				fmt.Sprintf("Find out why DAG-run %s of DAG %q failed, using the dagu_read tool (read-only):", id, a["name"]),
				"1. Read the run: " + callJSONText("target", "run", "name", a["name"], "dagRunId", id) +
					". Note data.dagRunId (the concrete ID) and every step whose statusLabel is failed, with its error.",
				"2. For each failed step, read the end of its error output: " +
					callJSONText("target", "step_log", "name", a["name"], "dagRunId", "<data.dagRunId>", "stepName", "<step>", "query", "stream=stderr&tail=100") +
					", and its stdout the same way with stream=stdout when stderr is empty. A step with subRuns failed in a child run: read it with subRunId.",
				"3. Read the scheduler log for what happened around the steps: " +
					callJSONText("target", "run_logs", "name", a["name"], "dagRunId", "<data.dagRunId>", "query", "tail=50") + ".",
				"4. If the cause is in the DAG's definition, read it: " + callJSONText("target", "dag_spec", "name", a["name"]) + ".",
				"Then explain the cause in a few sentences, quote the decisive log lines, and suggest a fix. Do not guess beyond what the logs show.",
			}, "\n")
		},
		targets: []string{"run", "step_log", "run_logs", "dag_spec"},
	},
	{
		prompt: &mcp.Prompt{
			Name: "what_does_dag_do", Title: "What does a DAG do?",
			Description: "Read a DAG's definition and its latest run, then describe what it does and how it is doing.",
			Arguments:   []*mcp.PromptArgument{{Name: "name", Title: "DAG name", Description: "The DAG to describe.", Required: true}},
		},
		render: func(a map[string]string) string {
			return strings.Join([]string{
				fmt.Sprintf("Describe DAG %q using the dagu_read tool (read-only):", a["name"]),
				"1. Read its definition: " + callJSONText("target", "dag_spec", "name", a["name"]) + ".",
				"2. Read its summary and latest run: " + callJSONText("target", "dag", "name", a["name"]) + "; when data.latestRun exists, read " +
					callJSONText("target", "run", "name", a["name"], "dagRunId", "latest") + ".",
				"Then explain what the DAG does step by step (schedule, parameters, dependencies, child DAGs, notifications) and how its latest run went.",
			}, "\n")
		},
		targets: []string{"dag_spec", "dag", "run"},
	},
	{
		prompt: &mcp.Prompt{
			Name: "recent_failures", Title: "What failed recently?",
			Description: "List the failed DAG-runs of the last days, grouped by DAG, with the failing step of each.",
			Arguments: []*mcp.PromptArgument{
				{Name: "days", Title: "Days", Description: fmt.Sprintf("How many days back to look, 1 to 3660 (default %d, the runs window).", runWindowDays)},
			},
		},
		render: func(a map[string]string) string {
			query := "status=2"
			if days, err := strconv.Atoi(a["days"]); err == nil && days > 0 && days <= 3660 {
				query += "&fromDate=" + strconv.FormatInt(time.Now().Add(-time.Duration(days)*24*time.Hour).Unix(), 10)
			}
			return strings.Join([]string{
				"Report the DAG-runs that failed recently, using the dagu_read tool (read-only):",
				"1. List failed runs: " + callJSONText("target", "runs", "query", query) + "; follow data.nextCursor (same query plus cursor=<nextCursor>) until there is none.",
				"2. Group the runs by DAG name. For the newest failed run of each DAG, read it with target run to find the failed step and its error.",
				"Then give one line per DAG: how many runs failed, when the last one did, and which step failed with what error.",
			}, "\n")
		},
		targets: []string{"runs", "run"},
	},
}

func orDefault(v, def string) string {
	if v == "" {
		return def
	}
	return v
}

// RegisterPrompts adds the prompts to an MCP server.
func RegisterPrompts(s *mcp.Server) {
	for _, p := range promptSpecs {
		s.AddPrompt(p.prompt, promptHandler(p))
	}
}

// maxPromptArgument bounds a prompt argument like the tool's own
// identifier fields (name, stepName: 255 characters).
const maxPromptArgument = 255

func promptHandler(p promptSpec) mcp.PromptHandler {
	return func(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		args := map[string]string{}
		if req != nil && req.Params != nil {
			for k, v := range req.Params.Arguments {
				args[k] = v
			}
		}
		for _, a := range p.prompt.Arguments {
			v := strings.TrimSpace(args[a.Name])
			if a.Required && v == "" {
				return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("argument %s is required", a.Name)}
			}
			if len(v) > maxPromptArgument {
				return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("argument %s is longer than %d characters", a.Name, maxPromptArgument)}
			}
			args[a.Name] = v
		}
		return &mcp.GetPromptResult{
			Description: p.prompt.Description,
			Messages:    []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: p.render(args)}}},
		}, nil
	}
}
