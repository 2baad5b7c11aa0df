// SPDX-License-Identifier: Apache-2.0

package frontdoor

import (
	"bufio"
	"io"
	"net/http"
)

// batchRefusal is the JSON-RPC error a batch gets. MCP revisions since
// 2025-06-18 have no batching; the SDK still accepts a batch from a client
// that claims an older revision, and one HTTP request could then carry any
// number of tool calls. The gateway refuses every batch, so one request is
// one call.
const batchRefusal = `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"JSON-RPC batches are not supported: send one request per HTTP request."}}`

// maxLeadingSpace bounds the whitespace looked through before the first
// JSON character.
const maxLeadingSpace = 4096

// refuseBatches answers 400 to a POST whose JSON body is an array.
func refuseBatches(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.Body == nil {
			h.ServeHTTP(w, r)
			return
		}
		br := bufio.NewReaderSize(r.Body, maxLeadingSpace+1)
		if firstJSONByte(br) == '[' {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			_, _ = io.WriteString(w, batchRefusal+"\n")
			return
		}
		r.Body = struct {
			io.Reader
			io.Closer
		}{br, r.Body}
		h.ServeHTTP(w, r)
	})
}

// firstJSONByte peeks at the first byte that is not JSON whitespace,
// without consuming anything; 0 when there is none within the bound.
func firstJSONByte(br *bufio.Reader) byte {
	for n := 1; n <= maxLeadingSpace; n++ {
		b, err := br.Peek(n)
		if len(b) < n {
			return 0
		}
		switch c := b[n-1]; c {
		case ' ', '\t', '\r', '\n':
			if err != nil {
				return 0
			}
		default:
			return c
		}
	}
	return 0
}
