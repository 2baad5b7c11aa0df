// SPDX-License-Identifier: Apache-2.0

package readtool_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
	"github.com/dagu-mcp-gateway/gateway/internal/mcpapp"
	"github.com/dagu-mcp-gateway/gateway/internal/mcpserver"
	"github.com/dagu-mcp-gateway/gateway/internal/readtool"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient"
)

// TestAnswersUnchangedWithTheView: served by the gateway's own MCP server,
// where dagu_read links to the MCP App view (internal/mcpapp) and the
// server declares the extension, every row's example read answers exactly
// what its golden records, content and structuredContent alike: the view
// adds to the tool's definition and to the resources, never to an answer.
// (The result's _meta names the server, which the goldens' test server
// does under another name.)
func TestAnswersUnchangedWithTheView(t *testing.T) {
	t.Parallel()
	if *update {
		// TestRowExamples is rewriting the goldens this test reads: a new
		// row's golden is missing and another may be half written.
		t.Skip("-update rewrites the goldens; run the tests again without it")
	}
	fake, tool := newToolOver(t, fakedagu.Options{RecordedOnly: true, Foreach: fakedagu.ForeachRoutes},
		restclient.Config{Key: restclient.StaticKey(testKey), Timeout: 5 * time.Second})
	server, err := mcpserver.New("test", tool, nil)
	if err != nil {
		t.Fatal(err)
	}
	h := &harness{fake: fake, session: connectServer(t, server)}
	tools, err := h.session.ListTools(context.Background(), nil)
	if err != nil || len(tools.Tools) != 1 || tools.Tools[0].Meta[mcpapp.LegacyResourceURIKey] != mcpapp.URI {
		t.Fatalf("the served dagu_read does not link the view: %v %+v", err, tools)
	}
	for _, ex := range readtool.RowExamples() {
		t.Run(ex.Golden, func(t *testing.T) {
			h.fake.Reset()
			got := answerOf(t, renderResult(t, ex.Args, h.call(t, ex.Args)))
			raw, err := os.ReadFile(filepath.Join("testdata", "golden", ex.Golden+".json"))
			if err != nil {
				t.Fatal(err)
			}
			if want := answerOf(t, raw); !bytes.Equal(got, want) {
				t.Fatalf("with the view, %s answers differently from its golden:\n%s", ex.Args, diffHint(want, got))
			}
		})
	}
}

// answerOf is a rendered result without its _meta (the SDK's serverInfo),
// re-encoded the way the goldens are.
func answerOf(t *testing.T, rendered []byte) []byte {
	t.Helper()
	var doc struct {
		Arguments json.RawMessage            `json:"arguments"`
		Result    map[string]json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal(rendered, &doc); err != nil {
		t.Fatal(err)
	}
	delete(doc.Result, "_meta")
	out, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return out
}
