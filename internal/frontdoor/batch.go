// SPDX-License-Identifier: Apache-2.0

package frontdoor

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"log/slog"
	"net/http"
)

// batchRefusal is the JSON-RPC error of a batch from a client of MCP
// 2025-06-18 or later, which has no batches. Only 2025-03-26 (a request
// without an MCP-Protocol-Version header, or with that version) has them.
const batchRefusal = `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"JSON-RPC batches are part of MCP 2025-03-26 only: a client of a later revision sends one request per HTTP request."}}`

// notUTF8Refusal is the JSON-RPC error of a body in UTF-16 or UTF-32 (its
// byte order mark starts with 0xFE or 0xFF, never valid in UTF-8): JSON-RPC
// over HTTP is UTF-8, and such a body could hide a batch from the check.
const notUTF8Refusal = `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"The request body must be UTF-8 JSON."}}`

// peekSize is the read buffer used to look past leading whitespace; the
// whitespace is consumed and dropped as it is read, so however much there
// is (up to the body limit), no more than this is held.
const peekSize = 512

// messages reads an /mcp POST's JSON-RPC body before the MCP handler
// does. A single message the handler would answer with a plain-text error
// (not JSON, an unknown method, a missing ID or params) is answered here
// with a JSON-RPC error in JSON (checkMessage); any other goes on to next.
// A batch from a 2025-03-26 client, which that revision requires servers
// to take, is served message by message (serveBatch); a batch in any other
// revision is refused, whatever whitespace and UTF-8 byte order marks
// precede it, and so is a body in UTF-16 or UTF-32.
type messages struct {
	next   http.Handler
	admit  *admission
	logger *slog.Logger
}

// ServeHTTP reads the body once: what precedes the first JSON character
// is dropped as it is read, the rest is handed on in memory (the body
// limit and the request's memory reservation are already in place).
func (m *messages) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.Body == nil {
		m.next.ServeHTTP(w, r)
		return
	}
	br := bufio.NewReaderSize(r.Body, peekSize)
	first := skipToJSON(br)
	version := protocolOf(r)
	switch {
	case first == 0xFE || first == 0xFF:
		refuse(w, notUTF8Refusal)
		return
	case first == '[' && version != protocol20250326:
		refuse(w, batchRefusal)
		return
	}
	body, err := readBody(br, r.ContentLength)
	switch {
	case errors.As(err, new(*http.MaxBytesError)):
		writeError(w, http.StatusRequestEntityTooLarge, "request body too large")
		return
	case err != nil:
		writeError(w, http.StatusBadRequest, "the request body could not be read")
		return
	case first == '[':
		m.serveBatch(w, r, body)
		return
	}
	if f := checkMessage(body, version); f != nil {
		f.write(w, version)
		return
	}
	r.Body, r.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
	m.next.ServeHTTP(w, r)
}

// readBody reads what is left of a body of declared length (-1: unknown),
// in one allocation of that length when it is known (the body limit has
// bounded it): io.ReadAll's doubling would allocate twice a large body.
func readBody(r io.Reader, declared int64) ([]byte, error) {
	if declared < 0 {
		return io.ReadAll(r)
	}
	b := make([]byte, declared)
	n, err := io.ReadFull(r, b)
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		err = nil // what leading whitespace and marks took, or a short body
	}
	return b[:n], err
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
