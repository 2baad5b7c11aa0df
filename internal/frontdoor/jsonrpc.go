// SPDX-License-Identifier: Apache-2.0

package frontdoor

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	segjson "github.com/segmentio/encoding/json"
)

// JSON-RPC error codes the front door answers with.
const (
	codeParseError     = -32700
	codeInvalidRequest = -32600
	codeMethodNotFound = -32601
	codeInvalidParams  = -32602
	codeInternalError  = -32603
)

// maxNesting is how deeply a message's JSON may nest: the go-sdk refuses
// deeper bodies before it decodes them, and so does the front door, whose
// decoder would otherwise recurse once per level.
const maxNesting = 1000

// rpcFault is a JSON-RPC error the front door answers instead of the MCP
// handler: id is the raw ID of the request it answers (nil: none known).
type rpcFault struct {
	code    int
	message string
	id      json.RawMessage
}

// rpcMessage is what the front door reads of one JSON-RPC message: the
// envelope, never the params' content.
type rpcMessage struct {
	JSONRPC *string         `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  json.RawMessage `json:"method"`
	Params  presence        `json:"params"`
	Result  presence        `json:"result"`
	Error   presence        `json:"error"`
}

// presence records that a member was there without keeping its value.
type presence bool

// UnmarshalJSON notes the member; the decoder has checked its syntax.
func (p *presence) UnmarshalJSON([]byte) error {
	*p = true
	return nil
}

// checkMessage reads one JSON-RPC message the way the go-sdk reads it
// (segmentio's decoder, member names matched exactly) and returns the
// fault the front door answers for it, or nil to pass it to the SDK.
// version is the revision the request speaks: from 2026-07-28 the SDK
// answers an unknown method itself, as that revision wants (404, -32601).
func checkMessage(body []byte, version string) *rpcFault {
	if nestedDeeperThan(body, maxNesting) {
		return &rpcFault{code: codeParseError, message: fmt.Sprintf("Parse error: the message nests deeper than %d levels.", maxNesting)}
	}
	var m rpcMessage
	rest, err := segjson.Parse(body, &m, segjson.DontMatchCaseInsensitiveStructFields)
	var syntax *segjson.SyntaxError
	switch {
	case errors.As(err, &syntax) || (err == nil && len(bytes.TrimLeft(rest, " \t\r\n")) > 0):
		return &rpcFault{code: codeParseError, message: "Parse error: the request body is not one JSON value."}
	case err != nil:
		return &rpcFault{code: codeInvalidRequest, message: "Invalid request: a JSON-RPC message is a JSON object."}
	}
	return m.check(version)
}

// check applies JSON-RPC's rules and the MCP server's method table.
func (m *rpcMessage) check(version string) *rpcFault {
	id, idOK := messageID(m.ID)
	invalid := func(why string) *rpcFault {
		return &rpcFault{code: codeInvalidRequest, message: "Invalid request: " + why, id: id}
	}
	switch {
	case !idOK:
		return invalid(`"id" must be a string or a number.`)
	case m.JSONRPC == nil || *m.JSONRPC != "2.0":
		return invalid(`"jsonrpc" must be "2.0".`)
	case m.Method == nil && id != nil && bool(m.Result || m.Error):
		return nil // a client's answer: the SDK takes it
	case m.Method == nil:
		return invalid(`a request needs a "method".`)
	}
	var method string
	if err := segjson.Unmarshal(m.Method, &method); err != nil {
		return invalid(`"method" must be a string.`)
	}
	rule, known := mcpMethods[method]
	switch {
	case !known && id != nil && modernProtocol(version):
		return nil // the SDK's own 404 with -32601 is what 2026-07-28 wants
	case !known:
		return &rpcFault{code: codeMethodNotFound, message: fmt.Sprintf("Method not found: %q is not a method of this MCP server.", echoed(method)), id: id}
	case rule.notification && id != nil:
		return invalid(fmt.Sprintf(`%q is a notification: it carries no "id".`, method))
	case !rule.notification && id == nil:
		return invalid(fmt.Sprintf(`%q is a request: it needs an "id".`, method))
	case !rule.paramsOptional && !bool(m.Params):
		return &rpcFault{code: codeInvalidParams, message: fmt.Sprintf("Invalid params: %q needs params.", method), id: id}
	}
	return nil
}

// messageID returns a message's ID as sent (nil for none: absent or null,
// which the SDK reads as no ID) and whether it is one JSON-RPC allows.
func messageID(raw json.RawMessage) (json.RawMessage, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return nil, true
	}
	switch c := raw[0]; {
	case c == '"', c == '-', c >= '0' && c <= '9':
		return raw, true
	}
	return nil, false
}

// nestedDeeperThan reports whether data's arrays and objects nest more
// than limit levels deep, strings aside. It reads data once.
func nestedDeeperThan(data []byte, limit int) bool {
	depth, inString, escaped := 0, false, false
	for _, b := range data {
		switch {
		case inString && escaped:
			escaped = false
		case inString && b == '\\':
			escaped = true
		case inString && b == '"':
			inString = false
		case inString:
		case b == '"':
			inString = true
		case b == '{' || b == '[':
			if depth++; depth > limit {
				return true
			}
		case b == '}' || b == ']':
			depth--
		}
	}
	return false
}

// status is the HTTP status of f's answer in revision version. A message
// that is not a valid request, or a notification the server does not
// take, is input the server cannot accept: 400. An error answering a
// request the front door can name (an ID) is an ordinary JSON-RPC answer,
// 200, up to 2025-11-25; from 2026-07-28 the error decides it (404 for an
// unknown method, 400 for invalid params).
func (f *rpcFault) status(version string) int {
	switch {
	case f.id == nil || f.code == codeParseError || f.code == codeInvalidRequest:
		return http.StatusBadRequest
	case !modernProtocol(version):
		return http.StatusOK
	case f.code == codeMethodNotFound:
		return http.StatusNotFound
	}
	return http.StatusBadRequest
}

// rpcAnswer is a JSON-RPC error answer, its members in the order of the
// specification's examples.
type rpcAnswer struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Error   jsonRPCError    `json:"error"`
}

// body is f's JSON-RPC answer.
func (f *rpcFault) body() []byte {
	id := f.id
	if id == nil {
		id = json.RawMessage("null")
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(rpcAnswer{JSONRPC: "2.0", ID: id, Error: jsonRPCError{Code: f.code, Message: f.message}}); err != nil {
		return []byte(`{"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"internal error"}}` + "\n")
	}
	return b.Bytes()
}

// write answers f. The body has been read whole, so unlike the refusals
// before it the connection stays open.
func (f *rpcFault) write(w http.ResponseWriter, version string) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(f.status(version))
	_, _ = w.Write(f.body())
}
