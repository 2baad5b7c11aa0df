// SPDX-License-Identifier: Apache-2.0

package main

import (
	"encoding/json"
	"io"
	"mime"
	"net/http"
	"strings"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
)

// The MCP revisions the gateway agrees to, as a client sends them: ""
// is a request without an MCP-Protocol-Version header (a 2025-03-26
// client's, and the SDK's default).
var protocolRevisions = []string{"", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"}

// rawMCP is a client that writes its JSON-RPC by hand, in one revision.
type rawMCP struct {
	t       *testing.T
	url     string
	version string
}

// rpcReply is one JSON-RPC answer as the tests read it.
type rpcReply struct {
	ID     any             `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int             `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data"`
	} `json:"error"`
}

// call sends one request (params nil: none) and returns the HTTP status,
// the media type and the raw answer.
func (c rawMCP) call(method string, params map[string]any) (int, string, []byte) {
	msg := map[string]any{"jsonrpc": "2.0", "id": 1, "method": method}
	if params != nil {
		msg["params"] = c.withMeta(params)
	}
	body, _ := json.Marshal(msg)
	return c.post(string(body), method, params)
}

// withMeta adds what 2026-07-28 carries in every request instead of the
// initialize handshake.
func (c rawMCP) withMeta(params map[string]any) map[string]any {
	if c.version != "2026-07-28" {
		return params
	}
	out := map[string]any{"_meta": map[string]any{
		"io.modelcontextprotocol/protocolVersion":    c.version,
		"io.modelcontextprotocol/clientInfo":         map[string]string{"name": "raw", "version": "0"},
		"io.modelcontextprotocol/clientCapabilities": map[string]any{},
	}}
	for k, v := range params {
		out[k] = v
	}
	return out
}

func (c rawMCP) post(body, method string, params map[string]any) (int, string, []byte) {
	c.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, c.url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+goodToken)
	if c.version != "" {
		req.Header.Set("Mcp-Protocol-Version", c.version)
	}
	if c.version == "2026-07-28" {
		req.Header.Set("Mcp-Method", method)
		switch method {
		case "tools/call", "prompts/get":
			req.Header.Set("Mcp-Name", params["name"].(string))
		case "resources/read":
			req.Header.Set("Mcp-Name", params["uri"].(string))
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	media, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	return resp.StatusCode, media, raw
}

// reply decodes one JSON-RPC answer.
func reply(t *testing.T, raw []byte) rpcReply {
	t.Helper()
	var r rpcReply
	if err := json.Unmarshal(raw, &r); err != nil {
		t.Fatalf("not one JSON-RPC answer: %s", raw)
	}
	return r
}

// TestProtocolRowsPerRevision checks each row of issue 39 in every
// revision the gateway agrees to, against the whole gateway: an unknown
// method is -32601 in JSON (200 up to 2025-11-25, 404 from 2026-07-28), a
// missing resource is -32002 up to 2025-11-25 and -32602 from 2026-07-28
// with the contract's error object as data, a batch is refused outside
// 2025-03-26, and resources/read of a caller's Dagu data is private.
func TestProtocolRowsPerRevision(t *testing.T) {
	t.Parallel()
	base := startServe(t, fakedagu.Options{RecordedOnly: true}, "--auth-token", goodToken, "--list-cache-ttl", "2s")
	for _, version := range protocolRevisions {
		modern := version == "2026-07-28"
		c := rawMCP{t: t, url: base + "/mcp", version: version}
		t.Run(version+" unknown method", func(t *testing.T) {
			c.t = t
			status, media, raw := c.call("tasks/get", map[string]any{"taskId": "x"})
			want := http.StatusOK
			if modern {
				want = http.StatusNotFound
			}
			if r := reply(t, raw); status != want || media != "application/json" || r.Error == nil || r.Error.Code != -32601 {
				t.Fatalf("%d %s %s; want %d with -32601 in JSON", status, media, raw, want)
			}
		})
		t.Run(version+" missing resource", func(t *testing.T) {
			c.t = t
			_, _, raw := c.call("resources/read", map[string]any{"uri": "dagu://dags/no_such_dag/spec"})
			want := -32002
			if modern {
				want = -32602
			}
			r := reply(t, raw)
			var data struct{ Code, Message, Field, URI string }
			if r.Error == nil || r.Error.Code != want || json.Unmarshal(r.Error.Data, &data) != nil ||
				data.Code != "resource_not_found" || data.Field != "uri" || data.URI != "dagu://dags/no_such_dag/spec" {
				t.Fatalf("%s; want %d with the contract's resource_not_found", raw, want)
			}
		})
		t.Run(version+" batch", func(t *testing.T) {
			c.t = t
			status, _, raw := c.post(`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, "", nil)
			want, wantBody := http.StatusBadRequest, "batches are part of MCP 2025-03-26 only"
			if version == "" || version == "2025-03-26" {
				want, wantBody = http.StatusOK, `[{"jsonrpc":"2.0","id":1,"result":{}}]`
			}
			if status != want || !strings.Contains(string(raw), wantBody) {
				t.Fatalf("%d %s; want %d with %s", status, raw, want, wantBody)
			}
		})
		if modern {
			t.Run(version+" public lists", func(t *testing.T) {
				c.t = t
				for _, method := range []string{"server/discover", "tools/list", "resources/list"} {
					_, _, raw := c.call(method, map[string]any{})
					if !strings.Contains(string(reply(t, raw).Result), `"ttlMs":30000,"cacheScope":"public"`) {
						t.Errorf("%s: %s; want public for the reference topics' 30 s", method, raw)
					}
				}
			})
		}
		t.Run(version+" private Dagu data", func(t *testing.T) {
			c.t = t
			_, _, raw := c.call("resources/read", map[string]any{"uri": "dagu://dags"})
			var hints struct {
				TTLMs      int    `json:"ttlMs"`
				CacheScope string `json:"cacheScope"`
			}
			if err := json.Unmarshal(reply(t, raw).Result, &hints); err != nil || hints.CacheScope != "private" || hints.TTLMs != 2000 {
				t.Fatalf("%s: want private for the list cache's 2 s", raw)
			}
		})
	}
}

// TestA20250326ClientEndToEnd: a client of MCP 2025-03-26 initializes,
// then sends its requests without a version header, some of them as one
// batch, which the gateway answers message by message in one array in
// the batch's order (the notification has no answer).
func TestA20250326ClientEndToEnd(t *testing.T) {
	t.Parallel()
	base := startServe(t, fakedagu.Options{RecordedOnly: true}, "--auth-token", goodToken)
	c := rawMCP{t: t, url: base + "/mcp"}
	_, _, raw := c.call("initialize", map[string]any{"protocolVersion": "2025-03-26", "capabilities": map[string]any{},
		"clientInfo": map[string]string{"name": "old", "version": "0"}})
	var init struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	if err := json.Unmarshal(reply(t, raw).Result, &init); err != nil || init.ProtocolVersion != "2025-03-26" {
		t.Fatalf("initialize: %s", raw)
	}
	if status, _, raw := c.post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`, "", nil); status != http.StatusAccepted {
		t.Fatalf("initialized: %d %s", status, raw)
	}
	batch := "[" + strings.Join([]string{
		`{"jsonrpc":"2.0","id":0,"method":"ping"}`,
		toolRead(1, "dags"), toolRead(2, "runs"), toolRead(3, "references"),
		`{"jsonrpc":"2.0","id":4,"method":"resources/read","params":{"uri":"dagu://dags"}}`,
		`{"jsonrpc":"2.0","id":5,"method":"resources/read","params":{"uri":"dagu://dags/no_such_dag/spec"}}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":99}}`,
	}, ",") + "]"
	answers := postBatch(t, c, batch, 6)
	for i, a := range answers[:5] {
		if a.Error != nil || strings.Contains(string(a.Result), `"isError":true`) {
			t.Errorf("answer %d: %s %+v", i, a.Result, a.Error)
		}
	}
	if !strings.Contains(string(answers[4].Result), `"uri":"dagu://dags"`) {
		t.Errorf("resources/read: %s", answers[4].Result)
	}
	if e := answers[5].Error; e == nil || e.Code != -32002 || !strings.Contains(string(e.Data), `"code":"resource_not_found"`) {
		t.Errorf("the missing resource in the batch: %+v", answers[5])
	}
}

// TestBatchMessagesCountAgainstTheRateLimit: each read of a batch is one
// read of the caller's (--rate-limit), as if sent alone.
func TestBatchMessagesCountAgainstTheRateLimit(t *testing.T) {
	t.Parallel()
	base := startServe(t, fakedagu.Options{RecordedOnly: true}, "--auth-token", goodToken, "--rate-limit", "0.001", "--rate-burst", "4")
	c := rawMCP{t: t, url: base + "/mcp"}
	batch := "[" + strings.Join([]string{toolRead(0, "dags"), toolRead(1, "dags"), toolRead(2, "dags"), toolRead(3, "dags"), toolRead(4, "dags")}, ",") + "]"
	limited := 0
	for _, a := range postBatch(t, c, batch, 5) {
		if strings.Contains(string(a.Result), `"isError":true`) && strings.Contains(string(a.Result), "resource_unavailable") {
			limited++
		}
	}
	if limited != 1 {
		t.Errorf("%d of 5 reads refused with a burst of 4, want 1", limited)
	}
}

// toolRead is a tools/call of dagu_read for target, with a one-digit id.
func toolRead(id int, target string) string {
	return `{"jsonrpc":"2.0","id":` + string(rune('0'+id)) + `,"method":"tools/call","params":{"name":"dagu_read","arguments":{"target":"` + target + `"}}}`
}

// postBatch sends a batch and reads its n answers, checking that the
// i-th answers the message with ID i.
func postBatch(t *testing.T, c rawMCP, batch string, n int) []rpcReply {
	t.Helper()
	status, media, raw := c.post(batch, "", nil)
	var answers []rpcReply
	if err := json.Unmarshal(raw, &answers); err != nil || status != http.StatusOK || media != "application/json" || len(answers) != n {
		t.Fatalf("batch: %d %s %s (%v)", status, media, raw, err)
	}
	for i, a := range answers {
		if a.ID != float64(i) {
			t.Fatalf("answer %d has ID %v: %s", i, a.ID, raw)
		}
	}
	return answers
}
