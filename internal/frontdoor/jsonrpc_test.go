// SPDX-License-Identifier: Apache-2.0

package frontdoor

import (
	"encoding/json"
	"io"
	"maps"
	"mime"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestJSONRPCErrorsAreJSON: what the go-sdk would answer with a plain-text
// 400 (an unknown method in every revision before 2026-07-28, a body that
// is not JSON-RPC, a missing ID or params) gets a JSON-RPC error in an
// application/json body in every revision, with the status of that
// revision; from 2026-07-28 an unknown method is the SDK's own 404.
func TestJSONRPCErrorsAreJSON(t *testing.T) {
	t.Parallel()
	ts := sdkFrontDoor(t, Options{})
	type want struct {
		status int
		code   int
		id     any
	}
	tests := []struct {
		name, body string
		legacy     want // 2025-03-26 (no header), 2025-06-18, 2025-11-25
		modern     want // 2026-07-28
	}{
		{"unknown method", `{"jsonrpc":"2.0","id":1,"method":"foo/bar"}`, want{200, codeMethodNotFound, 1.0}, want{404, codeMethodNotFound, 1.0}},
		{"tasks/get", `{"jsonrpc":"2.0","id":"t","method":"tasks/get","params":{"taskId":"x"}}`, want{200, codeMethodNotFound, "t"}, want{404, codeMethodNotFound, "t"}},
		{"unknown notification", `{"jsonrpc":"2.0","method":"notifications/foo"}`, want{400, codeMethodNotFound, nil}, want{400, codeMethodNotFound, nil}},
		{"not JSON", `{"jsonrpc":"2.0","id":1,`, want{400, codeParseError, nil}, want{400, codeParseError, nil}},
		{"empty body", ``, want{400, codeParseError, nil}, want{400, codeParseError, nil}},
		{"not an object", `"ping"`, want{400, codeInvalidRequest, nil}, want{400, codeInvalidRequest, nil}},
		{"wrong version tag", `{"jsonrpc":"1.0","id":1,"method":"ping"}`, want{400, codeInvalidRequest, 1.0}, want{400, codeInvalidRequest, 1.0}},
		{"ID of the wrong type", `{"jsonrpc":"2.0","id":true,"method":"ping"}`, want{400, codeInvalidRequest, nil}, want{400, codeInvalidRequest, nil}},
		{"method of the wrong type", `{"jsonrpc":"2.0","id":1,"method":7}`, want{400, codeInvalidRequest, 1.0}, want{400, codeInvalidRequest, 1.0}},
		{"method names matched exactly", `{"jsonrpc":"2.0","id":1,"Method":"ping"}`, want{400, codeInvalidRequest, 1.0}, want{400, codeInvalidRequest, 1.0}},
		{"call without params", `{"jsonrpc":"2.0","id":1,"method":"tools/call"}`, want{200, codeInvalidParams, 1.0}, want{400, codeInvalidParams, 1.0}},
		{"notification with an ID", `{"jsonrpc":"2.0","id":1,"method":"notifications/initialized"}`, want{400, codeInvalidRequest, 1.0}, want{400, codeInvalidRequest, 1.0}},
		{"call without an ID", `{"jsonrpc":"2.0","method":"ping"}`, want{400, codeInvalidRequest, nil}, want{400, codeInvalidRequest, nil}},
		{"trailing garbage", `{"jsonrpc":"2.0","id":1,"method":"ping"} {}`, want{400, codeParseError, nil}, want{400, codeParseError, nil}},
	}
	for _, version := range []string{"", "2025-06-18", "2025-11-25", "2026-07-28"} {
		for _, tt := range tests {
			t.Run(version+" "+tt.name, func(t *testing.T) {
				t.Parallel()
				w := tt.legacy
				if version == "2026-07-28" {
					w = tt.modern
				}
				req, _ := http.NewRequest(http.MethodPost, ts.URL+"/mcp", strings.NewReader(tt.body))
				if version != "" {
					req.Header.Set("Mcp-Protocol-Version", version)
				}
				status, answer := postJSONRPC(t, ts, req)
				if status != w.status || answer.Error.Code != w.code || answer.ID != w.id {
					t.Fatalf("got %d %+v, want %d with code %d and id %v", status, answer, w.status, w.code, w.id)
				}
			})
		}
	}
}

// TestWellFormedMessagesReachTheSDK: a client's answer, known
// notifications and calls, extra members and an unknown call at
// 2026-07-28 (the SDK's own 404) pass the check.
func TestWellFormedMessagesReachTheSDK(t *testing.T) {
	t.Parallel()
	tests := []struct{ version, body string }{
		{"2025-11-25", `{"jsonrpc":"2.0","id":1,"result":{}}`},
		{"2025-11-25", `{"jsonrpc":"2.0","id":"e","error":{"code":1,"message":"no"}}`},
		{"2025-11-25", `{"jsonrpc":"2.0","method":"notifications/initialized"}`},
		{"2025-03-26", `{"jsonrpc":"2.0","id":1,"method":"ping"}`},
		{"2025-11-25", `{"jsonrpc":"2.0","id":-3,"method":"tools/list","params":{},"extra":[1,{"deep":true}]}`},
		{"2025-11-25", ` {"jsonrpc":"2.0","id":1,"method":"ping","params":null}` + "\n"},
		{"2026-07-28", `{"jsonrpc":"2.0","id":1,"method":"foo/bar"}`},
	}
	for _, tt := range tests {
		if f := checkMessage([]byte(tt.body), tt.version); f != nil {
			t.Errorf("%s %s: %+v", tt.version, tt.body, f)
		}
	}
}

// jsonRPCErrorAnswer is what the tests read of an error answer.
type jsonRPCErrorAnswer struct {
	JSONRPC string `json:"jsonrpc"`
	ID      any    `json:"id"`
	Error   struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// postJSONRPC sends req with an MCP client's headers and reads a JSON-RPC
// error answer, failing unless it is application/json.
func postJSONRPC(t *testing.T, ts *httptest.Server, req *http.Request) (int, jsonRPCErrorAnswer) {
	t.Helper()
	resp, body := sendMCP(t, ts, req)
	var answer jsonRPCErrorAnswer
	media, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if media != "application/json" || json.Unmarshal(body, &answer) != nil || answer.JSONRPC != "2.0" {
		t.Fatalf("%d %q %s: not a JSON-RPC answer in JSON", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
	return resp.StatusCode, answer
}

// TestMethodTableMatchesTheSDK pins mcpMethods to the go-sdk's own table:
// behind no front door, at 2025-11-25, the SDK takes every method of the
// table (a call with params answers in JSON, a notification 202), refuses
// a call of the table without params unless they are optional, and
// refuses the methods of the specification it does not have.
func TestMethodTableMatchesTheSDK(t *testing.T) {
	t.Parallel()
	server := mcp.NewServer(&mcp.Implementation{Name: "test", Version: "0"}, nil)
	ts := httptest.NewServer(MCPHandler(server, nil))
	t.Cleanup(ts.Close)
	send := func(body string) int {
		req, _ := http.NewRequest(http.MethodPost, ts.URL, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
		resp, err := ts.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode
	}
	for _, method := range slices.Sorted(maps.Keys(mcpMethods)) {
		rule := mcpMethods[method]
		id := `"id":1,`
		want := http.StatusOK
		if rule.notification {
			id, want = "", http.StatusAccepted
		}
		if got := send(`{"jsonrpc":"2.0",` + id + `"method":"` + method + `","params":{}}`); got != want {
			t.Errorf("%s with params: the SDK answers %d, want %d", method, got, want)
		}
		if !rule.notification {
			want := http.StatusBadRequest
			if rule.paramsOptional {
				want = http.StatusOK
			}
			if got := send(`{"jsonrpc":"2.0",` + id + `"method":"` + method + `"}`); got != want {
				t.Errorf("%s without params: the SDK answers %d, want %d (paramsOptional %v)", method, got, want, rule.paramsOptional)
			}
		}
	}
	for _, method := range []string{"tasks/get", "tasks/list", "tasks/result", "tasks/cancel", "elicitation/create",
		"sampling/createMessage", "roots/list", "notifications/message", "foo/bar"} {
		if got := send(`{"jsonrpc":"2.0","id":1,"method":"` + method + `","params":{}}`); got != http.StatusBadRequest {
			t.Errorf("%s: the SDK answers %d; if it takes it now, add it to mcpMethods", method, got)
		}
	}
}

// FuzzCheckMessage: whatever the body, checkMessage either passes a JSON
// object tagged "2.0" or answers a JSON-RPC error whose body is JSON.
func FuzzCheckMessage(f *testing.F) {
	for _, seed := range []string{`{"jsonrpc":"2.0","id":1,"method":"ping"}`, `{"jsonrpc":"2.0","id":1,"result":{}}`, `[`, `{"method":"x\u0000"}`,
		`{"jsonrpc":"2.0","id":"\"","method":"tools/call","params":{"a":[[[]]]}}`, `{"jsonrpc":"2.0","method":"notifications/progress"}`} {
		f.Add([]byte(seed), false)
	}
	f.Fuzz(func(t *testing.T, body []byte, modern bool) {
		version := "2025-11-25"
		if modern {
			version = "2026-07-28"
		}
		fault := checkMessage(body, version)
		if fault == nil {
			var m map[string]json.RawMessage
			if err := json.Unmarshal(body, &m); err != nil || string(m["jsonrpc"]) != `"2.0"` {
				t.Fatalf("passed %q (%v)", body, err)
			}
			return
		}
		var answer jsonRPCErrorAnswer
		if err := json.Unmarshal(fault.body(), &answer); err != nil || answer.Error.Code != fault.code || answer.Error.Message == "" {
			t.Fatalf("answer %q to %q: %v", fault.body(), body, err)
		}
		if s := fault.status(version); s != 200 && s != 400 && s != 404 {
			t.Fatalf("status %d", s)
		}
	})
}
