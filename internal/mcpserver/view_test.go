// SPDX-License-Identifier: Apache-2.0

package mcpserver_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dagu-mcp-gateway/gateway/internal/mcpapp"
)

// TestServerServesTheView: the gateway's MCP server declares the MCP Apps
// extension with the view's MIME type, links dagu_read to the view (nested
// and flat _meta keys), lists the view's resource (with its border
// preference) next to the dagu:// ones and reads it whole, public and kept
// for a day.
func TestServerServesTheView(t *testing.T) {
	t.Parallel()
	s := session(t, nil)
	ctx := context.Background()
	caps := s.InitializeResult().Capabilities
	want := map[string]any{"mimeTypes": []any{mcpapp.MIMEType}}
	if got := caps.Extensions[mcpapp.Extension]; !reflect.DeepEqual(got, want) {
		t.Fatalf("extensions %v, want %s: %v", caps.Extensions, mcpapp.Extension, want)
	}
	if caps.Tools == nil || caps.Resources == nil || caps.Prompts == nil {
		t.Fatalf("capabilities %+v", caps)
	}
	tools, err := s.ListTools(ctx, nil)
	if err != nil || len(tools.Tools) != 1 {
		t.Fatalf("tools/list: %v %+v", err, tools)
	}
	meta := tools.Tools[0].Meta
	ui, _ := meta["ui"].(map[string]any)
	if ui["resourceUri"] != mcpapp.URI || meta[mcpapp.LegacyResourceURIKey] != mcpapp.URI {
		t.Fatalf("dagu_read _meta %v", meta)
	}
	list, err := s.ListResources(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var view, dagu int
	for _, r := range list.Resources {
		switch {
		case r.URI == mcpapp.URI && r.MIMEType == mcpapp.MIMEType && r.Name == "dagu_view":
			if ui, _ := r.Meta["ui"].(map[string]any); ui["prefersBorder"] != true {
				t.Errorf("the view's listed _meta %v asks for no border", r.Meta)
			}
			view++
		case r.URI == "dagu://reference/read-tool":
			dagu++
		}
	}
	if view != 1 || dagu != 1 {
		t.Fatalf("resources/list shows the view %d times and dagu://reference/read-tool %d times: %+v", view, dagu, list.Resources)
	}
	got, err := s.ReadResource(ctx, &mcp.ReadResourceParams{URI: mcpapp.URI})
	if err != nil || len(got.Contents) != 1 {
		t.Fatalf("resources/read of the view: %v %+v", err, got)
	}
	if c := got.Contents[0]; c.URI != mcpapp.URI || c.MIMEType != mcpapp.MIMEType || c.Text != mcpapp.HTML() || c.Blob != nil {
		t.Fatalf("read %s %s, %d bytes of text (want the %d of the view)", c.URI, c.MIMEType, len(c.Text), len(mcpapp.HTML()))
	}
	// The view is the same for every caller and changes only with its URI.
	if got.CacheScope != "public" || got.TTLMs != 24*60*60*1000 {
		t.Fatalf("the view's cache hints: %s for %d ms", got.CacheScope, got.TTLMs)
	}
}
