// SPDX-License-Identifier: Apache-2.0

package restclient

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"sync"

	"github.com/dagu-mcp-gateway/gateway/internal/restclient/gen"
)

// decodeJSON finishes a generated call: transport failures pass through as
// *Error values (the doer already turned non-2xx answers into errors); a
// parse failure, a 2xx answer without a JSON body (wrong content type, or
// a status other than 200) and JSON null are Undecodable.
//
// It decides exactly as the generated ParseXxxResponse functions (a JSON
// content type and status 200 decode into T; another JSON answer must
// parse as the error body), but reads the body once into a pooled buffer
// instead of a fresh, repeatedly grown one per call, and keeps no copy:
// json.Unmarshal copies every value it keeps out of the buffer.
func decodeJSON[T any](route string, res *http.Response, err error) (*T, error) {
	if err != nil {
		return nil, decodeError(route, err)
	}
	buf := bodyBuffers.get(res.ContentLength)
	defer bodyBuffers.put(buf)
	_, err = buf.ReadFrom(res.Body)
	_ = res.Body.Close()
	if err != nil {
		return nil, decodeError(route, err)
	}
	body := buf.Bytes()
	if !strings.Contains(res.Header.Get("Content-Type"), "json") {
		return nil, notJSON(route)
	}
	if res.StatusCode != http.StatusOK {
		var e gen.ErrorResponse
		if err := json.Unmarshal(body, &e); err != nil {
			return nil, decodeError(route, err)
		}
		return nil, notJSON(route)
	}
	var dest T
	if err := json.Unmarshal(body, &dest); err != nil {
		return nil, decodeError(route, err)
	}
	if isJSONNull(body) {
		// json.Unmarshal accepts null into any type and leaves it empty:
		// that would pass for an empty success.
		return nil, &Error{Route: route, Undecodable: true, Excerpt: "answer is JSON null"}
	}
	return &dest, nil
}

func notJSON(route string) *Error {
	return &Error{Route: route, Undecodable: true, Excerpt: "answer is not a JSON body"}
}

func isJSONNull(b []byte) bool { return string(bytes.TrimSpace(b)) == "null" }

// maxPooledBuffer is the largest body buffer kept for reuse: a rare large
// answer (a log window, a long DAG list) is not kept alive after it.
const maxPooledBuffer = 64 << 10

// bufferPool recycles the buffers answers are read into.
type bufferPool struct{ pool sync.Pool }

var bodyBuffers = &bufferPool{pool: sync.Pool{New: func() any { return new(bytes.Buffer) }}}

// get returns an empty buffer with room for a body of the declared length
// (already checked against the response cap) and the read that sees EOF.
func (p *bufferPool) get(declared int64) *bytes.Buffer {
	buf := p.pool.Get().(*bytes.Buffer)
	if declared > 0 {
		buf.Grow(int(declared) + bytes.MinRead)
	}
	return buf
}

func (p *bufferPool) put(buf *bytes.Buffer) {
	if buf.Cap() > maxPooledBuffer {
		return
	}
	buf.Reset()
	p.pool.Put(buf)
}
