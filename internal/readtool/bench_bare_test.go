// SPDX-License-Identifier: Apache-2.0

package readtool_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dagu-mcp-gateway/gateway/internal/readtool"
	"github.com/dagu-mcp-gateway/gateway/internal/reference"
)

// The issue 14 goal "reference read-tool p50 at most 1.15x a bare go-sdk
// server returning the same bytes": both benchmarks run one tools/call
// over the SDK's in-memory transport; the bare server's handler returns a
// result computed once, with the same content and structured bytes.

func referenceTool(b *testing.B) *readtool.Tool {
	refs, err := reference.New(reference.Options{})
	if err != nil {
		b.Fatal(err)
	}
	tool, err := readtool.New(readtool.Options{Upstream: specOnly{}, References: refs})
	if err != nil {
		b.Fatal(err)
	}
	return tool
}

const readToolArgs = `{"target":"reference","name":"read-tool"}`

func BenchmarkReferenceReadToolOverMCP(b *testing.B) {
	session := connect(b, referenceTool(b))
	benchCalls(b, session)
}

func BenchmarkBareSDKSameBytesOverMCP(b *testing.B) {
	canned := referenceTool(b).Call(context.Background(), json.RawMessage(readToolArgs))
	server := mcp.NewServer(&mcp.Implementation{Name: "bare", Version: "0"}, nil)
	server.AddTool(readtool.Definition(), func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return canned, nil
	})
	serverT, clientT := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := server.Connect(ctx, serverT, nil)
	if err != nil {
		b.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "0"}, nil).Connect(ctx, clientT, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = cs.Close(); _ = ss.Wait() })
	benchCalls(b, cs)
}

func benchCalls(b *testing.B, cs *mcp.ClientSession) {
	params := &mcp.CallToolParams{Name: readtool.ToolName, Arguments: json.RawMessage(readToolArgs)}
	b.ReportAllocs()
	for b.Loop() {
		res, err := cs.CallTool(context.Background(), params)
		if err != nil || res.IsError {
			b.Fatalf("call failed: %v", err)
		}
	}
}
