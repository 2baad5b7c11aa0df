// SPDX-License-Identifier: Apache-2.0

package mcpserver_test

import (
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dagu-mcp-gateway/gateway/internal/mcpserver"
)

// RegisterPrompts adds prompts that walk an agent through common reads
// with dagu_read calls.
func ExampleRegisterPrompts() {
	server := mcp.NewServer(&mcp.Implementation{Name: "example-gateway", Version: "example"}, nil)
	mcpserver.RegisterPrompts(server)
	ctx := context.Background()
	serverT, clientT := mcp.NewInMemoryTransports()
	if _, err := server.Connect(ctx, serverT, nil); err != nil {
		panic(err)
	}
	session, err := mcp.NewClient(&mcp.Implementation{Name: "example-client", Version: "example"}, nil).Connect(ctx, clientT, nil)
	if err != nil {
		panic(err)
	}
	defer session.Close()
	list, err := session.ListPrompts(ctx, nil)
	if err != nil {
		panic(err)
	}
	for _, p := range list.Prompts {
		fmt.Println(p.Name)
	}
	// Output:
	// recent_failures
	// what_does_dag_do
	// why_did_run_fail
}
