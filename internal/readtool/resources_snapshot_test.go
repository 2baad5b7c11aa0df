// SPDX-License-Identifier: Apache-2.0

package readtool_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/readtool"
	"github.com/dagu-mcp-gateway/gateway/internal/reference"
)

// listOnly is an Upstream for listings: resources/list and
// resources/templates/list never reach Dagu.
type listOnly struct{ readtool.Upstream }

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
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(map[string]any{"resourceTemplates": templates.ResourceTemplates, "resources": list.Resources}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("testdata", "resources.json")
	if *update {
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(want, b.Bytes()) {
		t.Fatalf("the resources changed; review and run go test -update\n%s", diffHint(want, b.Bytes()))
	}
}
