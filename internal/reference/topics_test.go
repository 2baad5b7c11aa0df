// SPDX-License-Identifier: Apache-2.0

package reference

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"regexp"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/dagu-mcp-gateway/gateway/internal/readtool"
)

// The contract's vocabulary, which the read-tool topic must cover. The
// targets are the read tool's rows (readtool/targettable.go).
var (
	readTargets = readtool.TargetNames()
	inputFields = []string{
		"target", "name", "dagRunId", "subRunId", "stepName", "item", "bodyStepName",
		"query", "workspace", "path", "password", "search", "prefix", "cursor", "limit", "uri",
	}
	queryParams = []string{
		"page", "perPage", "labels", "sort", "order", "status", "fromDate", "toDate",
		"limit", "cursor", "flat", "prefix", "tail", "head", "offset", "stream", "parent",
	}
	errorCodes = []string{
		"unauthenticated", "unauthorized", "invalid_tool_input", "unsupported_read_target",
		"invalid_resource_uri", "unsupported_resource", "resource_not_found",
		"resource_unavailable", "internal_error",
	}
)

func builtinText(t *testing.T, name string) string {
	t.Helper()
	texts, err := loadEmbedded()
	if err != nil {
		t.Fatal(err)
	}
	return texts[name]
}

func TestBuiltinTopicsAreSubstantial(t *testing.T) {
	t.Parallel()
	tests := []struct {
		topic    string
		minBytes int
		mentions []string
	}{
		{"authoring", 8000, []string{
			"steps:", "depends", "run:", "schedule", "params", "env", "preconditions",
			"retry_policy", "continue_on", "handler_on", "dag.run", "parallel", "foreach",
			"max_concurrent", "human.task", "approval", "labels", "queue", "max_active_runs",
			"working_dir", "timeout_sec", "secrets", "${params.", "command:", "call:",
			"handlerOn", "retryPolicy", "continueOn", "maxActiveRuns",
		}},
		{"tools", 2500, []string{
			"dagu_read", "dagu_change", "dagu_execute", "/mcp", "read-only",
			"dagu://reference", "dagu://dags", "dagu://wiki", "dagu://runs", "/sub/{subRunId}",
		}},
		{"read-tool", 12000, []string{
			"7 days", "latest", "200 lines", "32 KiB", "window", "didYouMean",
			"status=2", "step_log", "/sub/{subRunId}", "foreach-route", "aggregate",
		}},
		{"change-tool", 1200, []string{"dagu_change", "does not serve", "/mcp", "preview", "dag_spec"}},
		{"execute-tool", 1200, []string{"dagu_execute", "does not serve", "/mcp", "Retry", "Stop", "Enqueue"}},
		{"notifications", 2000, []string{
			"mail_on", "smtp", "error_mail", "info_mail", "mailOn", "errorMail", "infoMail",
			"handler_on", "http.request", "Slack", "channels", "status=7",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.topic, func(t *testing.T) {
			text := builtinText(t, tt.topic)
			if len(text) < tt.minBytes {
				t.Errorf("%s is %d bytes, want at least %d", tt.topic, len(text), tt.minBytes)
			}
			if titleOf(text) == "" {
				t.Errorf("%s has no title heading", tt.topic)
			}
			flat := strings.Join(strings.Fields(text), " ") // ignore line wrapping
			for _, m := range tt.mentions {
				if !strings.Contains(flat, m) {
					t.Errorf("%s does not mention %q", tt.topic, m)
				}
			}
		})
	}
}

func TestReadToolCoversContractVocabulary(t *testing.T) {
	t.Parallel()
	text := builtinText(t, "read-tool")
	for _, group := range [][]string{readTargets, inputFields, queryParams, errorCodes} {
		for _, word := range group {
			if !strings.Contains(text, "`"+word+"`") {
				t.Errorf("read-tool does not mention `%s`", word)
			}
		}
	}
}

// targetHeading is a target's section heading in the read-tool topic:
// "### `name`: what it reads".
var targetHeading = regexp.MustCompile("(?m)^### `([a-z_]+)`: ")

// TestReadToolHasASectionPerTargetRow: the read-tool topic's Targets
// section (internal/reference/topics/read-tool.md) has one section per
// row of the read tool's target table, in the rows' order, and each shows
// a call of its own target. A row added without its section, or a
// section left behind by a removed row, fails.
func TestReadToolHasASectionPerTargetRow(t *testing.T) {
	t.Parallel()
	text := builtinText(t, "read-tool")
	_, targets, ok := strings.Cut(text, "\n## Targets\n")
	if !ok {
		t.Fatal("read-tool has no Targets section")
	}
	if end := strings.Index(targets, "\n## "); end >= 0 {
		targets = targets[:end]
	}
	headings := targetHeading.FindAllStringSubmatchIndex(targets, -1)
	var names []string
	for i, h := range headings {
		name := targets[h[2]:h[3]]
		names = append(names, name)
		end := len(targets)
		if i+1 < len(headings) {
			end = headings[i+1][0]
		}
		if !strings.Contains(targets[h[0]:end], `"target": "`+name+`"`) {
			t.Errorf("read-tool's section of %s shows no call of it", name)
		}
	}
	if !slices.Equal(names, readTargets) {
		t.Errorf("read-tool's target sections are %q; the rows are %q", names, readTargets)
	}
}

var fencePattern = regexp.MustCompile("(?s)```(json|yaml)\n(.*?)```")

// fencedBlocks returns the json and yaml code blocks of a topic.
func fencedBlocks(text string) (jsonBlocks, yamlBlocks []string) {
	for _, m := range fencePattern.FindAllStringSubmatch(text, -1) {
		if m[1] == "json" {
			jsonBlocks = append(jsonBlocks, m[2])
		} else {
			yamlBlocks = append(yamlBlocks, m[2])
		}
	}
	return jsonBlocks, yamlBlocks
}

func TestJSONExamplesAreValidCalls(t *testing.T) {
	t.Parallel()
	for _, topic := range builtinTopics {
		jsonBlocks, _ := fencedBlocks(builtinText(t, topic))
		for i, block := range jsonBlocks {
			var obj map[string]any
			if err := json.Unmarshal([]byte(block), &obj); err != nil {
				t.Errorf("%s json block %d: %v\n%s", topic, i, err, block)
				continue
			}
			if _, isEnvelope := obj["data"]; isEnvelope {
				continue
			}
			checkCall(t, topic, obj)
		}
	}
}

// checkCall verifies that an example dagu_read call uses only contract
// fields, a known target, and one addressing mode.
func checkCall(t *testing.T, topic string, call map[string]any) {
	t.Helper()
	for field := range call {
		if !slices.Contains(inputFields, field) {
			t.Errorf("%s: example %v uses unknown field %q", topic, call, field)
		}
	}
	uri, hasURI := call["uri"].(string)
	target, hasTarget := call["target"].(string)
	switch {
	case hasURI && (len(call) != 1 || !strings.HasPrefix(uri, "dagu://")):
		t.Errorf("%s: URI-mode example %v is malformed", topic, call)
	case !hasURI && !hasTarget:
		t.Errorf("%s: example %v has neither target nor uri", topic, call)
	case hasTarget && !slices.Contains(readTargets, target):
		t.Errorf("%s: example %v uses unknown target", topic, call)
	}
	if q, ok := call["query"].(string); ok && strings.HasPrefix(q, "?") {
		t.Errorf("%s: example query %q starts with ?", topic, q)
	}
}

func TestYAMLExamplesParse(t *testing.T) {
	t.Parallel()
	count := 0
	for _, topic := range builtinTopics {
		_, yamlBlocks := fencedBlocks(builtinText(t, topic))
		for i, block := range yamlBlocks {
			count++
			dec := yaml.NewDecoder(bytes.NewReader([]byte(block)))
			for {
				var doc map[string]any
				err := dec.Decode(&doc)
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					t.Errorf("%s yaml block %d: %v\n%s", topic, i, err, block)
					break
				}
			}
		}
	}
	if count < 20 {
		t.Fatalf("found %d yaml examples, want the authoring guide's examples", count)
	}
}

func TestTopicsAreFinished(t *testing.T) {
	t.Parallel()
	for _, topic := range builtinTopics {
		text := builtinText(t, topic)
		for _, bad := range []string{"TODO", "FIXME", "lorem ipsum"} {
			if strings.Contains(text, bad) {
				t.Errorf("%s contains %q", topic, bad)
			}
		}
	}
}
