// SPDX-License-Identifier: Apache-2.0

package frontdoor

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"testing/iotest"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dagu-mcp-gateway/gateway/internal/membudget"
)

// TestBatchesByRevision: MCP 2025-03-26 (a request without a version
// header, or with that version) requires a server to take JSON-RPC
// batches, and the gateway serves small ones message by message; every
// later revision has none, and a batch there is refused however it is
// hidden (issue 20: 4,100 spaces took a 7,500-call batch past the check).
func TestBatchesByRevision(t *testing.T) {
	t.Parallel()
	ts := sdkFrontDoor(t, Options{})
	pingCall := `{"jsonrpc":"2.0","id":1,"method":"ping"}`
	list := `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`
	pair := "[" + pingCall + "," + list + "]"
	tests := []struct {
		name, body, version string
		want                int
		wantBody            string
	}{
		{"2025-03-26 batch", pair, "2025-03-26", 200, `[{"jsonrpc":"2.0","id":1,"result":{}},{"jsonrpc":"2.0","id":2,"result":`},
		{"batch without a version header", pair, "", 200, `[{"jsonrpc":"2.0","id":1,"result":{}},{"jsonrpc":"2.0","id":2,"result":`},
		{"2025-03-26 batch after whitespace and marks", " \xEF\xBB\xBF\n [" + pingCall + "]", "2025-03-26", 200, `[{"jsonrpc":"2.0","id":1,"result":{}}]`},
		{"2025-06-18 batch", pair, "2025-06-18", 400, "batches are part of MCP 2025-03-26 only"},
		{"2025-11-25 batch", pair, "2025-11-25", 400, "batches are part of MCP 2025-03-26 only"},
		{"2026-07-28 batch", pair, "2026-07-28", 400, "batches are part of MCP 2025-03-26 only"},
		{"2024-11-05 batch", pair, "2024-11-05", 400, "batches are part of MCP 2025-03-26 only"},
		{"batch after whitespace", " \n\t" + pair, "2025-11-25", 400, "batches are part of MCP 2025-03-26 only"},
		{"batch after 4,100 spaces", strings.Repeat(" ", 4100) + pair, "2025-11-25", 400, "batches are part of MCP 2025-03-26 only"},
		{"batch after 900 KiB of whitespace", strings.Repeat(" \r\n\t", 900<<8) + pair, "2025-06-18", 400, "batches are part of MCP 2025-03-26 only"},
		{"batch after a byte order mark", "\xEF\xBB\xBF" + pair, "2025-11-25", 400, "batches are part of MCP 2025-03-26 only"},
		{"batch after marks and whitespace", " \xEF\xBB\xBF\n\xEF\xBB\xBF  " + pair, "2025-11-25", 400, "batches are part of MCP 2025-03-26 only"},
		{"UTF-16 batch", "\xFF\xFE[\x00", "2025-03-26", 400, "must be UTF-8"},
		{"single request", list, "2025-11-25", 200, `"tools"`},
		{"single request after 10,000 spaces", strings.Repeat(" ", 10_000) + list, "2025-11-25", 200, `"tools"`},
		{"single request after a byte order mark", "\xEF\xBB\xBF" + list, "2025-11-25", 200, `"tools"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			req, _ := http.NewRequest(http.MethodPost, ts.URL+"/mcp", strings.NewReader(tt.body))
			if tt.version != "" {
				req.Header.Set("Mcp-Protocol-Version", tt.version)
			}
			expectMCPAnswer(t, ts, req, tt.want, tt.wantBody)
		})
	}
}

// TestBatchMessagesAreCheckedOneByOne: each message of a 2025-03-26 batch
// gets the answer it would get alone, in the batch's order; the batch
// itself must be a list of 1 to maxBatchMessages messages whose IDs
// differ.
func TestBatchMessagesAreCheckedOneByOne(t *testing.T) {
	t.Parallel()
	ts := sdkFrontDoor(t, Options{})
	pingCall := func(id string) string { return `{"jsonrpc":"2.0","id":` + id + `,"method":"ping"}` }
	initialized := `{"jsonrpc":"2.0","method":"notifications/initialized"}`
	eleven := make([]string, maxBatchMessages+1)
	for i := range eleven {
		eleven[i] = pingCall(strings.Repeat("1", i+1))
	}
	tests := []struct {
		name, body string
		want       int
		wantBody   string
	}{
		{"unknown method beside a ping", `[{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{}},` + pingCall("2") + `]`, 200,
			`[{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found: \"tasks/get\" is not a method of this MCP server."}},{"jsonrpc":"2.0","id":2,"result":{}}]`},
		{"a message that is not an object", `[1,` + pingCall("2") + `]`, 200,
			`[{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid request: a JSON-RPC message is a JSON object."}},{"jsonrpc":"2.0","id":2,"result":{}}]`},
		{"a notification and a call", `[` + initialized + `,` + pingCall(`"a"`) + `]`, 200, `[{"jsonrpc":"2.0","id":"a","result":{}}]`},
		{"notifications only", `[` + initialized + `]`, 202, ""},
		{"empty batch", `[]`, 400, `"code":-32600,"message":"Invalid request: an empty batch."`},
		{"eleven messages", "[" + strings.Join(eleven, ",") + "]", 400, "a batch holds at most 10 messages"},
		{"ten messages", "[" + strings.Join(eleven[:10], ",") + "]", 200, `{"jsonrpc":"2.0","id":1111111111,"result":{}}]`},
		{"one ID twice", "[" + pingCall("7") + "," + pingCall("7") + "]", 400, "uses the ID 7 twice"},
		{"not JSON", `[{"jsonrpc":`, 400, `"code":-32700`},
		{"trailing garbage", "[" + pingCall("1") + "] x", 400, `"code":-32700`},
		{"nested too deeply", "[" + strings.Repeat("[", maxNesting) + strings.Repeat("]", maxNesting) + "]", 400, "nests deeper than 1000 levels"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			req, _ := http.NewRequest(http.MethodPost, ts.URL+"/mcp", strings.NewReader(tt.body))
			expectMCPAnswer(t, ts, req, tt.want, tt.wantBody)
		})
	}
}

// TestBatchMessagesReserveLikeRequests: every message of a batch reserves
// the memory a request of its size reserves, all of them before any runs;
// a batch whose messages do not all fit is refused whole with 503, and
// nothing stays reserved afterwards.
func TestBatchMessagesReserveLikeRequests(t *testing.T) {
	t.Parallel()
	call := func(id string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"probe","arguments":{}}}`
	}
	two := "[" + call("1") + "," + call("2") + "]"
	three := "[" + call("1") + "," + call("2") + "," + call("3") + "]"
	perMessage := requestReserve(int64(len(call("1"))), defaultMaxBodyBytes)
	fitsTwo := requestReserve(int64(len(two)), defaultMaxBodyBytes) + 2*perMessage
	tests := []struct {
		name      string
		body      string
		want      int
		wantCalls int
	}{
		{"two messages fit", two, http.StatusOK, 2},
		{"three do not", three, http.StatusServiceUnavailable, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			budget := membudget.New("test", fitsTwo)
			var mu sync.Mutex
			var held []int64
			server := mcp.NewServer(&mcp.Implementation{Name: "test", Version: "0"}, nil)
			server.AddTool(&mcp.Tool{Name: "probe", InputSchema: &jsonschema.Schema{Type: "object"}},
				func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
					mu.Lock()
					held = append(held, membudget.From(ctx).Held())
					mu.Unlock()
					return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil
				})
			ts := memoryFrontDoor(t, budget, MCPHandler(server, nil))
			req, _ := http.NewRequest(http.MethodPost, ts.URL+"/mcp", strings.NewReader(tt.body))
			expectMCPAnswer(t, ts, req, tt.want, "")
			ts.Close()
			if len(held) != tt.wantCalls {
				t.Fatalf("%d tool calls, want %d", len(held), tt.wantCalls)
			}
			for _, h := range held {
				if h != perMessage {
					t.Errorf("a message's reservation holds %d bytes, want %d (a request of its size)", h, perMessage)
				}
			}
			if budget.InUse() != 0 {
				t.Fatalf("%d bytes still reserved", budget.InUse())
			}
		})
	}
}

// TestBatchAnswerOfAMessageThatPanics: a message whose handler panics gets
// an internal error in its place; the others are answered.
func TestBatchAnswerOfAMessageThatPanics(t *testing.T) {
	t.Parallel()
	h, _ := frontDoor(t, func(o *Options) {
		o.MCP = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			body, _ := io.ReadAll(r.Body)
			if bytes.Contains(body, []byte(`"id":1,`)) {
				panic("boom")
			}
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":2,"result":{}}`)
		})
	})
	w := frontDoorRequest{path: "/mcp", body: `[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"}]`}.do(h)
	var answers []map[string]any
	if err := json.Unmarshal(w.Body.Bytes(), &answers); err != nil || w.Code != http.StatusOK || len(answers) != 2 {
		t.Fatalf("%d %s: %v", w.Code, w.Body, err)
	}
	if e, _ := answers[0]["error"].(map[string]any); e["code"] != float64(codeInternalError) || answers[0]["id"] != float64(1) {
		t.Errorf("the panicking message's answer: %v", answers[0])
	}
	if answers[1]["result"] == nil {
		t.Errorf("the other message's answer: %v", answers[1])
	}
}

// TestReadBody: a body of known length is read in one allocation of that
// length, whatever part of it was consumed before; one of unknown length
// is read whole; a read error is passed on.
func TestReadBody(t *testing.T) {
	t.Parallel()
	tooLong := errors.New("too long")
	tests := []struct {
		name     string
		r        io.Reader
		declared int64
		want     string
		wantErr  error
	}{
		{"declared", strings.NewReader("abc"), 3, "abc", nil},
		{"declared, partly consumed", strings.NewReader("bc"), 3, "bc", nil},
		{"empty", strings.NewReader(""), 0, "", nil},
		{"unknown length", strings.NewReader(strings.Repeat("x", 5000)), -1, strings.Repeat("x", 5000), nil},
		{"read error", io.MultiReader(strings.NewReader("ab"), iotest.ErrReader(tooLong)), 5, "ab", tooLong},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := readBody(tt.r, tt.declared)
			if string(got) != tt.want || !errors.Is(err, tt.wantErr) {
				t.Fatalf("readBody = %q, %v; want %q, %v", got, err, tt.want, tt.wantErr)
			}
			if tt.declared >= 0 && int64(cap(got)) != tt.declared {
				t.Errorf("capacity %d, want the declared %d", cap(got), tt.declared)
			}
		})
	}
}

// FuzzSkipToJSON: the first byte skipToJSON reports, and what it leaves
// to read, are those of the input with its leading whitespace and UTF-8
// byte order marks removed.
func FuzzSkipToJSON(f *testing.F) {
	for _, seed := range []string{"", " [", "\xEF\xBB\xBF {", "\xEF\xBB", "\xEF\xBB\xBF\xEF\xBB\xBF\n[1]", "\t\r\n\xFF\xFE["} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		want := in
		for {
			trimmed := bytes.TrimLeft(want, " \t\r\n")
			trimmed = bytes.TrimPrefix(trimmed, utf8BOM)
			if len(trimmed) == len(want) {
				break
			}
			want = trimmed
		}
		br := bufio.NewReaderSize(bytes.NewReader(in), 16)
		got := skipToJSON(br)
		rest, _ := io.ReadAll(br)
		if !bytes.Equal(rest, want) || (len(want) > 0 && got != want[0]) || (len(want) == 0 && got != 0) {
			t.Fatalf("skipToJSON(%q) = %q leaving %q, want leaving %q", in, got, rest, want)
		}
	})
}
