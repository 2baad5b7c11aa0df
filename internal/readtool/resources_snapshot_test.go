// SPDX-License-Identifier: Apache-2.0

package readtool_test

import (
	"context"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/readtool"
	"github.com/dagu-mcp-gateway/gateway/internal/readtool/readtooltest"
	"github.com/dagu-mcp-gateway/gateway/internal/reference"
)

// listOnly is an Upstream for listings: resources/list and
// resources/templates/list never reach Dagu.
type listOnly struct{ readtooltest.Unsupported }

// TestResourcesSnapshot pins what every client sees of the resources
// (templates and listed entry points, with names, titles, MIME types and
// descriptions): a change is a reviewed diff of testdata/resources.json
// (refresh with -update).
func TestResourcesSnapshot(t *testing.T) {
	t.Parallel()
	refs, err := reference.New(reference.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tool, err := readtool.New(readtool.Options{Upstream: listOnly{}, References: refs})
	if err != nil {
		t.Fatal(err)
	}
	session := connect(t, tool)
	ctx := context.Background()
	templates, err := session.ListResourceTemplates(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	list, err := session.ListResources(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	snapshot(t, "resources.json", "resources", map[string]any{"resourceTemplates": templates.ResourceTemplates, "resources": list.Resources})
}
