// SPDX-License-Identifier: Apache-2.0

package mcpserver

import (
	"context"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dagu-mcp-gateway/gateway/internal/readtool"
)

// A person an access rule admitted is offered nothing the rule forbids:
// the tool narrows its own lists (readtool); this middleware narrows the
// server's: prompts/list leaves out the prompts whose recipes read a
// forbidden target, prompts/get refuses them, and the instructions of
// initialize and server/discover suggest no forbidden target.

// narrowServer is the receiving middleware that narrows the server's
// offers to what the caller's access rule allows.
func narrowServer(tool *readtool.Tool) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			forbidden := tool.Forbidden(ctx)
			if forbidden == nil {
				return next(ctx, method, req)
			}
			if get, ok := req.(*mcp.GetPromptRequest); ok && get.Params != nil {
				if p := promptNamed(get.Params.Name); p != nil && readsAny(p, forbidden) {
					return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams,
						Message: "the prompt " + p.prompt.Name + " reads targets your access rule does not allow (" + strings.Join(forbidden, ", ") + ")"}
				}
			}
			res, err := next(ctx, method, req)
			if err != nil {
				return res, err
			}
			switch r := res.(type) {
			case *mcp.ListPromptsResult:
				out := *r
				out.Prompts = slices.DeleteFunc(slices.Clone(r.Prompts), func(p *mcp.Prompt) bool {
					spec := promptNamed(p.Name)
					return spec != nil && readsAny(spec, forbidden)
				})
				return &out, nil
			case *mcp.InitializeResult:
				out := *r
				out.Instructions = instructionsWithout(forbidden)
				return &out, nil
			case *mcp.DiscoverResult:
				out := *r
				out.Instructions = instructionsWithout(forbidden)
				return &out, nil
			}
			return res, nil
		}
	}
}

// promptNamed is the prompt of that name; nil for none.
func promptNamed(name string) *promptSpec {
	for i := range promptSpecs {
		if promptSpecs[i].prompt.Name == name {
			return &promptSpecs[i]
		}
	}
	return nil
}

// readsAny reports whether the prompt's recipe reads one of targets.
func readsAny(p *promptSpec, targets []string) bool {
	return slices.ContainsFunc(p.targets, func(t string) bool { return slices.Contains(targets, t) })
}

// instructionSteps are the starting points serverInstructions names, each
// with the target it reads.
var instructionSteps = []struct{ target, text string }{
	{"reference", `{"target":"reference","name":"read-tool"} for the full guide`},
	{"dags", `{"target":"dags"} to list workflows`},
	{"runs", `{"target":"runs","query":"status=2"} to find failed runs`},
}

// instructionsWithout is serverInstructions with the starting points of
// forbidden targets left out.
func instructionsWithout(forbidden []string) string {
	var steps []string
	for _, s := range instructionSteps {
		if !slices.Contains(forbidden, s.target) {
			steps = append(steps, s.text)
		}
	}
	return instructionsOf(steps)
}

// instructionsOf words the instructions around the starting points.
func instructionsOf(steps []string) string {
	text := instructionsLead
	switch len(steps) {
	case 0:
	case 1:
		text += " Start with " + steps[0] + "."
	default:
		text += " Start with " + strings.Join(steps[:len(steps)-1], ", ") + ", or " + steps[len(steps)-1] + "."
	}
	return text
}
