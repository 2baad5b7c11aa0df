// SPDX-License-Identifier: Apache-2.0

package mcpserver_test

import (
	"context"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestPrompts: the prompts are listed and fill their arguments into
// dagu_read calls; a missing required argument or an overlong one is
// refused.
func TestPrompts(t *testing.T) {
	t.Parallel()
	s := session(t, nil)
	ctx := context.Background()
	list, err := s.ListPrompts(ctx, nil)
	if err != nil || len(list.Prompts) != 3 {
		t.Fatalf("prompts: %v %v", err, list)
	}
	res, err := s.GetPrompt(ctx, &mcp.GetPromptParams{Name: "why_did_run_fail", Arguments: map[string]string{"name": "failing_job"}})
	if err != nil {
		t.Fatal(err)
	}
	text := res.Messages[0].Content.(*mcp.TextContent).Text
	if !strings.Contains(text, `{"dagRunId":"latest","name":"failing_job","target":"run"}`) {
		t.Fatalf("prompt text: %s", text)
	}
	// Issue 21, row "Prompts": JSON in prompt text is not HTML-escaped.
	for _, want := range []string{`"dagRunId":"<data.dagRunId>"`, `"query":"stream=stderr&tail=100"`} {
		if !strings.Contains(text, want) || strings.Contains(text, `\u00`) {
			t.Errorf("prompt text lacks %s or has escapes: %s", want, text)
		}
	}
	if _, err := s.GetPrompt(ctx, &mcp.GetPromptParams{Name: "what_does_dag_do"}); err == nil {
		t.Fatal("a missing required argument was accepted")
	}
	long := strings.Repeat("n", 256)
	if _, err := s.GetPrompt(ctx, &mcp.GetPromptParams{Name: "what_does_dag_do", Arguments: map[string]string{"name": long}}); err == nil {
		t.Fatal("a 256-character argument was accepted")
	}
}
