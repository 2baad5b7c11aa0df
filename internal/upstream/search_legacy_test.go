// SPDX-License-Identifier: Apache-2.0

package upstream

import (
	"context"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
	"github.com/dagu-mcp-gateway/gateway/internal/model"
)

// TestLegacyDAGSearchCursorOfEveryWorkspace: on a release whose DAG search
// the gateway pages itself, an absent workspace and "all" are the same
// search (the contract's default), so a cursor issued for one continues
// the other.
func TestLegacyDAGSearchCursorOfEveryWorkspace(t *testing.T) {
	t.Parallel()
	for _, p := range []fakedagu.Profile{fakedagu.Profile117, fakedagu.Profile129} {
		t.Run(string(p), func(t *testing.T) {
			t.Parallel()
			env := newAdapterEnv(t, envOptions{fake: fakedagu.Options{Profile: p}, detect: true})
			ctx := context.Background()
			first, err := env.adapter.SearchDAGs(ctx, model.DAGSearchQuery{Search: "echo", Limit: 1})
			if err != nil || first.NextCursor == "" {
				t.Fatalf("first page: %+v, %v; want a next cursor", first, err)
			}
			for _, ws := range []string{"", model.AllWorkspaces} {
				next, err := env.adapter.SearchDAGs(ctx, model.DAGSearchQuery{Search: "echo", Workspace: ws, Cursor: first.NextCursor, Limit: 1})
				if err != nil || len(next.Results) != 1 || next.Results[0].Name == first.Results[0].Name {
					t.Fatalf("workspace %q: %+v, %v; want the second result", ws, next, err)
				}
			}
		})
	}
}
