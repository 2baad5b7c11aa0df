// SPDX-License-Identifier: Apache-2.0

package mcpapp_test

import (
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/mcpapp"
)

var update = flag.Bool("update", false, "record the view's digest under its new version in testdata/view.sha256")

// maxViewBytes is the view's size budget: a few tens of KB, loaded by every
// host that renders a dagu_read result.
const maxViewBytes = 96 << 10

// TestToolMetaLinksTheView: dagu_read's _meta names the view under
// ui.resourceUri and under the flat key older hosts read, as Dagu's own
// server does, and leaves the tool visible to the model and the view.
func TestToolMetaLinksTheView(t *testing.T) {
	t.Parallel()
	meta := mcpapp.ToolMeta()
	ui, _ := meta["ui"].(map[string]any)
	if ui["resourceUri"] != mcpapp.URI || meta["ui/resourceUri"] != mcpapp.URI {
		t.Fatalf("_meta %v", meta)
	}
	if !reflect.DeepEqual(ui["visibility"], []string{"model", "app"}) {
		t.Fatalf("visibility %v", ui["visibility"])
	}
	if !regexp.MustCompile(`^ui://dagu-mcp-gateway/view/v[0-9]+$`).MatchString(mcpapp.URI) {
		t.Fatalf("the URI %s carries no version", mcpapp.URI)
	}
}

// TestCapabilityNamesTheMIMEType: the extension's entry lists the one MIME
// type the gateway's views have.
func TestCapabilityNamesTheMIMEType(t *testing.T) {
	t.Parallel()
	want := map[string]any{"mimeTypes": []string{"text/html;profile=mcp-app"}}
	if got := mcpapp.Capability(); !reflect.DeepEqual(got, want) || mcpapp.Extension != "io.modelcontextprotocol/ui" {
		t.Fatalf("capability %s: %v", mcpapp.Extension, got)
	}
}

// TestViewIsSelfContained: the view loads nothing and connects nowhere
// (the host's default content security policy allows neither), reads only
// through dagu_read, and stays within its size budget.
func TestViewIsSelfContained(t *testing.T) {
	t.Parallel()
	html := mcpapp.HTML()
	if len(html) > maxViewBytes {
		t.Errorf("the view is %d bytes, over its budget of %d", len(html), maxViewBytes)
	}
	forbidden := map[string]*regexp.Regexp{
		"a URL other than the SVG namespace": regexp.MustCompile(`(?i)(https?:)?//[a-z0-9.-]+\.[a-z]{2,}/?`),
		"an external script, style or frame": regexp.MustCompile(`(?i)<(script|link|iframe|img|object|embed|base)\b[^>]*\b(src|href|data)\s*=`),
		"a CSS import or url()":              regexp.MustCompile(`(?i)@import|url\(\s*['"]?[a-z]`),
		"a network API":                      regexp.MustCompile(`\b(fetch|XMLHttpRequest|WebSocket|EventSource|sendBeacon|importScripts|Worker)\s*\(|\bimport\s*\(|new\s+(Image|WebSocket|EventSource|Worker)\b|window\.open\b`),
		"a tool other than dagu_read":        regexp.MustCompile(`dagu_(change|execute)|"(stop|retry|enqueue|start)"`),
	}
	stripped := strings.ReplaceAll(html, `"http://www.w3.org/2000/svg"`, `""`)
	for what, re := range forbidden {
		if m := re.FindString(stripped); m != "" {
			t.Errorf("the view holds %s: %q", what, m)
		}
	}
	if n := strings.Count(html, `"tools/call"`); n != 1 || !strings.Contains(html, `const TOOL = "dagu_read";`) {
		t.Errorf("the view calls tools/call from %d places, or not with dagu_read", n)
	}
}

// TestViewVersionIsBumped: testdata/view.sha256 records the digest of
// view.html under the version in URI. A changed view under the same
// version fails (hosts may cache a ui:// resource by its URI, and would
// keep showing the old view): bump the version in URI, then run
// go test ./internal/mcpapp -update.
func TestViewVersionIsBumped(t *testing.T) {
	t.Parallel()
	version := mcpapp.URI[strings.LastIndex(mcpapp.URI, "/")+1:]
	sum := sha256.Sum256([]byte(mcpapp.HTML()))
	digest := hex.EncodeToString(sum[:])
	path := filepath.Join("testdata", "view.sha256")
	raw, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	recVersion, recDigest, _ := strings.Cut(strings.TrimSpace(string(raw)), " ")
	switch {
	case recVersion == version && recDigest == digest:
	case recVersion == version:
		t.Fatalf("view.html changed under version %s: bump the version in mcpapp.URI, then run go test ./internal/mcpapp -update", version)
	case *update:
		if err := os.WriteFile(path, []byte(version+" "+digest+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	default:
		t.Fatalf("%s records version %q, the URI has %s: run go test ./internal/mcpapp -update", path, recVersion, version)
	}
}
