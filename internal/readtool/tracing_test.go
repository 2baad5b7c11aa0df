// SPDX-License-Identifier: Apache-2.0

package readtool

import (
	"errors"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

func TestResourceOutcome(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		err      error
		wantCode Code
		wantRPC  int64
	}{
		{"not found at 2026-07-28", resourceError(newError(CodeResourceNotFound, "gone"), "2026-07-28"), CodeResourceNotFound, jsonrpc.CodeInvalidParams},
		{"not found at 2025-11-25", resourceError(newError(CodeResourceNotFound, "gone"), "2025-11-25"), CodeResourceNotFound, codeResourceNotFound},
		{"invalid URI at 2025-11-25", resourceError(newError(CodeInvalidResourceURI, "bad"), "2025-11-25"), CodeInvalidResourceURI, jsonrpc.CodeInvalidParams},
		{"internal", resourceError(internalError(), "2026-07-28"), CodeInternalError, jsonrpc.CodeInternalError},
		{"rpc error without data", &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "x"}, CodeInternalError, jsonrpc.CodeInternalError},
		{"plain error", errors.New("boom"), CodeInternalError, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, rpc, _ := resourceOutcome(tc.err)
			if code != tc.wantCode || rpc != tc.wantRPC {
				t.Errorf("resourceOutcome = %s, %d; want %s, %d", code, rpc, tc.wantCode, tc.wantRPC)
			}
		})
	}
}

func TestMetaCarrier(t *testing.T) {
	t.Parallel()
	c := metaCarrier{"traceparent": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "n": 3}
	if got := c.Get("traceparent"); got != "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01" {
		t.Errorf("Get(traceparent) = %q", got)
	}
	if got := c.Get("n"); got != "" {
		t.Errorf("a non-string value reads as %q", got)
	}
	if len(c.Keys()) != 2 || len(metaCarrier(nil).Keys()) != 0 {
		t.Errorf("Keys = %v", c.Keys())
	}
}
