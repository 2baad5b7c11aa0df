// SPDX-License-Identifier: Apache-2.0

package readtool

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// panickingUpstream panics on every read: the embedded nil interface has
// no methods to call.
type panickingUpstream struct{ Upstream }

// TestPanickingReadAnswersInternalError: a read whose port panics answers
// internal_error with its target on both paths, a tool call and a resource
// read, instead of taking the gateway down.
func TestPanickingReadAnswersInternalError(t *testing.T) {
	t.Parallel()
	tool, err := New(Options{Upstream: panickingUpstream{}, References: stubRefs{}})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		read func() (*Error, error)
	}{
		{"tool call", func() (*Error, error) {
			res := tool.Call(context.Background(), json.RawMessage(`{"target":"dags"}`))
			e, _ := res.StructuredContent.(*Error)
			if !res.IsError || e == nil {
				return nil, errors.New("the call did not fail")
			}
			return e, nil
		}},
		{"resource read", func() (*Error, error) {
			_, err := tool.ReadResource(context.Background(), &mcp.ReadResourceRequest{Params: &mcp.ReadResourceParams{URI: "dagu://dags"}})
			var rpc *jsonrpc.Error
			if !errors.As(err, &rpc) {
				return nil, errors.New("the read did not fail with a JSON-RPC error")
			}
			var e Error
			if err := json.Unmarshal(rpc.Data, &e); err != nil {
				return nil, err
			}
			return &e, nil
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := tt.read()
			if err != nil {
				t.Fatal(err)
			}
			if e.Code != CodeInternalError || e.Target != tDAGs {
				t.Fatalf("error %+v, want internal_error for target dags", e)
			}
		})
	}
}
