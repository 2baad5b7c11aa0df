// SPDX-License-Identifier: Apache-2.0

package readtool_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dagu-mcp-gateway/gateway/internal/readtool"
	"github.com/dagu-mcp-gateway/gateway/internal/reference"
)

// exampleTool is the tool over specOnly and the embedded reference topics.
func exampleTool(opts readtool.Options) *readtool.Tool {
	refs, err := reference.New(reference.Options{})
	if err != nil {
		panic(err)
	}
	opts.Upstream, opts.References = specOnly{}, refs
	tool, err := readtool.New(opts)
	if err != nil {
		panic(err)
	}
	return tool
}

// exampleSession serves the tool on an MCP server and connects a client to
// it over an in-memory transport.
func exampleSession(register func(*mcp.Server)) *mcp.ClientSession {
	ctx := context.Background()
	server := mcp.NewServer(&mcp.Implementation{Name: "example-gateway", Version: "example"}, nil)
	register(server)
	serverT, clientT := mcp.NewInMemoryTransports()
	if _, err := server.Connect(ctx, serverT, nil); err != nil {
		panic(err)
	}
	session, err := mcp.NewClient(&mcp.Implementation{Name: "example-client", Version: "example"}, nil).Connect(ctx, clientT, nil)
	if err != nil {
		panic(err)
	}
	return session
}

// New needs the Upstream and References ports; options it cannot honour
// are refused when the tool is built, not when it is called.
func ExampleNew() {
	_, err := readtool.New(readtool.Options{})
	fmt.Println(err)
	refs, _ := reference.New(reference.Options{})
	_, err = readtool.New(readtool.Options{Upstream: specOnly{}, References: refs, DisabledTargets: []string{"queues"}})
	fmt.Println(err)
	_, err = readtool.New(readtool.Options{Upstream: specOnly{}, References: refs, DisabledTargets: []string{"workbook"}})
	fmt.Println(err)
	// Output:
	// readtool: Upstream and References are required
	// readtool: cannot disable unknown target "queues"
	// <nil>
}

// Definition is what tools/list shows: a read-only, idempotent tool whose
// input schema lists every target of the target table.
func ExampleDefinition() {
	def := readtool.Definition()
	var schema struct {
		Properties struct {
			Target struct {
				Enum []string `json:"enum"`
			} `json:"target"`
		} `json:"properties"`
	}
	_ = json.Unmarshal(def.InputSchema.(json.RawMessage), &schema)
	fmt.Println(def.Name, def.Annotations.ReadOnlyHint, def.Annotations.IdempotentHint)
	fmt.Println(schema.Properties.Target.Enum[:3], slices.Equal(schema.Properties.Target.Enum, readtool.TargetNames()))
	// Output:
	// dagu_read true true
	// [references reference dags] true
}

// Register serves dagu_read and the dagu:// resources on an MCP server,
// with the definition's _meta it is given (the gateway's server links its
// MCP App view there; nil for none); a client calls the tool as any other.
func ExampleTool_Register() {
	tool := exampleTool(readtool.Options{})
	session := exampleSession(func(s *mcp.Server) {
		tool.Register(s, mcp.Meta{"ui": map[string]any{"resourceUri": "ui://example/view"}})
	})
	defer session.Close()
	ctx := context.Background()
	tools, err := session.ListTools(ctx, nil)
	if err != nil {
		panic(err)
	}
	fmt.Println(len(tools.Tools), tools.Tools[0].Name, tools.Tools[0].Meta["ui"])
	res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: readtool.ToolName,
		Arguments: map[string]any{"uri": "dagu://dags/nightly/spec"}})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.IsError, res.Content[0].(*mcp.TextContent).Text)
	link := res.Content[1].(*mcp.ResourceLink)
	fmt.Println(link.Name, link.URI)
	// Output:
	// 1 dagu_read map[resourceUri:ui://example/view]
	// false Dagu read completed.
	// dag_spec dagu://dags/nightly/spec
}

// Handle is the raw MCP tool handler Register installs: bad input is a
// tool result with isError, never a protocol error.
func ExampleTool_Handle() {
	tool := exampleTool(readtool.Options{})
	res, err := tool.Handle(context.Background(), &mcp.CallToolRequest{
		Params: &mcp.CallToolParamsRaw{Name: readtool.ToolName, Arguments: json.RawMessage(`{"target":"dag_spec"}`)},
	})
	fmt.Println(err, res.IsError, res.Content[0].(*mcp.TextContent).Text)
	// Output:
	// <nil> true invalid_tool_input: The name field is required for target dag_spec.
}

// ReadResource answers resources/read like dagu_read in URI mode: a DAG
// spec is served as YAML; a failure is a JSON-RPC error whose data is the
// contract's error object.
func ExampleTool_ReadResource() {
	tool := exampleTool(readtool.Options{})
	ctx := context.Background()
	res, err := tool.ReadResource(ctx, &mcp.ReadResourceRequest{Params: &mcp.ReadResourceParams{URI: "dagu://dags/nightly/spec"}})
	if err != nil {
		panic(err)
	}
	fmt.Print(res.Contents[0].MIMEType, "\n", res.Contents[0].Text)
	_, err = tool.ReadResource(ctx, &mcp.ReadResourceRequest{Params: &mcp.ReadResourceParams{URI: "dagu://dags/nightly"}})
	var rpc *jsonrpc.Error
	if errors.As(err, &rpc) {
		fmt.Println(rpc.Code, string(rpc.Data))
	}
	// Output:
	// application/yaml
	// steps:
	//   - command: echo hi
	// -32602 {"code":"invalid_resource_uri","message":"Unsupported DAG resource path.","field":"uri","uri":"dagu://dags/nightly"}
}

// RegisterResources adds the resource templates of the target table's
// patterns and the stable entry points: the collections and the
// reference topics, never individual runs.
func ExampleTool_RegisterResources() {
	session := exampleSession(exampleTool(readtool.Options{}).RegisterResources)
	defer session.Close()
	list, err := session.ListResources(context.Background(), nil)
	if err != nil {
		panic(err)
	}
	for _, r := range list.Resources {
		fmt.Println(r.URI, r.MIMEType)
	}
	// Output:
	// dagu://dags application/json
	// dagu://reference application/json
	// dagu://reference/authoring text/markdown
	// dagu://reference/change-tool text/markdown
	// dagu://reference/execute-tool text/markdown
	// dagu://reference/notifications text/markdown
	// dagu://reference/read-tool text/markdown
	// dagu://reference/tools text/markdown
	// dagu://runs application/json
	// dagu://wiki application/json
}
