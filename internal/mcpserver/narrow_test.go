// SPDX-License-Identifier: Apache-2.0

package mcpserver_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dagu-mcp-gateway/gateway/internal/mcpserver"
	"github.com/dagu-mcp-gateway/gateway/internal/readtool"
	"github.com/dagu-mcp-gateway/gateway/internal/reference"
	"github.com/dagu-mcp-gateway/gateway/internal/reqctx"
)

// sessionOfRule connects a client whose every request carries the person
// an access rule allowing targets admitted (nil: a caller without a rule).
func sessionOfRule(t *testing.T, targets []string) *mcp.ClientSession {
	t.Helper()
	refs, err := reference.New(reference.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tool, err := readtool.New(readtool.Options{Upstream: noDagu{}, References: refs})
	if err != nil {
		t.Fatal(err)
	}
	server, err := mcpserver.New("test", tool, nil)
	if err != nil {
		t.Fatal(err)
	}
	info := reqctx.Info{Caller: "https://idp.example#u1", Trust: reqctx.TrustVerified}
	if targets != nil {
		info.Rule, info.Targets, info.Person = "dev", targets, &reqctx.Person{Issuer: "https://idp.example", Subject: "u1"}
	}
	serverT, clientT := mcp.NewInMemoryTransports()
	ss, err := server.Connect(reqctx.With(context.Background(), info), serverT, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "test"}, nil).Connect(context.Background(), clientT, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close(); _ = ss.Wait() })
	return cs
}

// TestRuleNarrowsPromptsAndInstructions: a person is offered only the
// prompts whose recipes read targets their rule allows, cannot get the
// others, and the instructions suggest no forbidden target; a caller
// without a rule gets everything.
func TestRuleNarrowsPromptsAndInstructions(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name         string
		targets      []string
		prompts      []string
		instructions []string // the targets the instructions suggest
	}{
		{"no rule", nil, []string{"why_did_run_fail", "what_does_dag_do", "recent_failures"}, []string{"reference", "dags", "runs"}},
		{"every target", []string{"*"}, []string{"why_did_run_fail", "what_does_dag_do", "recent_failures"}, []string{"reference", "dags", "runs"}},
		{"runs", []string{"dags", "runs", "run"}, []string{"recent_failures"}, []string{"reference", "dags", "runs"}},
		{"dags only", []string{"dags"}, nil, []string{"reference", "dags"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			targets := tt.targets
			if slices.Equal(targets, []string{"*"}) {
				targets = readtool.TargetNames()
			}
			cs := sessionOfRule(t, targets)
			res, err := cs.ListPrompts(context.Background(), nil)
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, p := range res.Prompts {
				names = append(names, p.Name)
			}
			slices.Sort(names)
			want := slices.Sorted(slices.Values(tt.prompts))
			if !slices.Equal(names, want) {
				t.Errorf("prompts %q, want %q", names, want)
			}
			for _, p := range []string{"why_did_run_fail", "what_does_dag_do", "recent_failures"} {
				_, err := cs.GetPrompt(context.Background(), &mcp.GetPromptParams{Name: p, Arguments: map[string]string{"name": "nightly"}})
				if offered := slices.Contains(tt.prompts, p); offered != (err == nil) {
					t.Errorf("prompts/get %s: %v (offered %v)", p, err, offered)
				} else if err != nil && !strings.Contains(err.Error(), "access rule") {
					t.Errorf("prompts/get %s refused with %v, want the access rule named", p, err)
				}
			}
			text := cs.InitializeResult().Instructions
			for _, target := range []string{"reference", "dags", "runs"} {
				if got := strings.Contains(text, `{"target":"`+target+`"`); got != slices.Contains(tt.instructions, target) {
					t.Errorf("instructions %q: suggests %s %v", text, target, got)
				}
			}
		})
	}
}
