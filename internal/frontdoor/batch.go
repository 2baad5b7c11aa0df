// SPDX-License-Identifier: Apache-2.0

package frontdoor

import (
	"bufio"
	"bytes"
	"io"
	"net/http"
)

// batchRefusal is the JSON-RPC error a batch gets. MCP revisions since
// 2025-06-18 have no batching; the SDK still accepts a batch from a client
// that claims an older revision, and one HTTP request could then carry any
// number of tool calls. The gateway refuses every batch, so one request is
// one call.
const batchRefusal = `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"JSON-RPC batches are not supported: send one request per HTTP request."}}`

// notUTF8Refusal is the JSON-RPC error of a body in UTF-16 or UTF-32 (its
// byte order mark starts with 0xFE or 0xFF, never valid in UTF-8): JSON-RPC
// over HTTP is UTF-8, and such a body could hide a batch from the check.
const notUTF8Refusal = `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"The request body must be UTF-8 JSON."}}`

// peekSize is the read buffer used to look past leading whitespace; the
// whitespace is consumed and dropped as it is read, so however much there
// is (up to the body limit), no more than this is held.
const peekSize = 512

// refuseBatches answers 400 to a POST whose JSON body is an array, whatever
// whitespace and UTF-8 byte order marks precede it, and to a body in UTF-16
// or UTF-32. The body is read once: what precedes the first JSON character
// is dropped, and the handler reads on from there.
func refuseBatches(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.Body == nil {
			h.ServeHTTP(w, r)
			return
		}
		br := bufio.NewReaderSize(r.Body, peekSize)
		switch skipToJSON(br) {
		case '[':
			refuse(w, batchRefusal)
			return
		case 0xFE, 0xFF:
			refuse(w, notUTF8Refusal)
			return
		}
		r.Body = struct {
			io.Reader
			io.Closer
		}{br, r.Body}
		h.ServeHTTP(w, r)
	})
}

func refuse(w http.ResponseWriter, body string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusBadRequest)
	_, _ = io.WriteString(w, body+"\n")
}

// utf8BOM is the UTF-8 byte order mark.
var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// skipToJSON consumes any amount of JSON whitespace and UTF-8 byte order
// marks and returns the next byte without consuming it; 0 at the end of the
// body or when it cannot be read (the handler then sees the same).
func skipToJSON(br *bufio.Reader) byte {
	for {
		head, _ := br.Peek(1)
		if len(head) == 0 {
			return 0
		}
		switch c := head[0]; c {
		case ' ', '\t', '\r', '\n':
			_, _ = br.Discard(1)
			continue
		case utf8BOM[0]:
			if mark, _ := br.Peek(len(utf8BOM)); bytes.Equal(mark, utf8BOM) {
				_, _ = br.Discard(len(utf8BOM))
				continue
			}
			return c
		default:
			return c
		}
	}
}
