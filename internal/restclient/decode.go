// SPDX-License-Identifier: Apache-2.0

package restclient

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"mime"
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
// parse as the error body), but reads the body into a pooled buffer
// (readBody) instead of a fresh one per call, and keeps no copy:
// json.Unmarshal copies every value it keeps out of the buffer.
func decodeJSON[T any](route string, res *http.Response, err error) (*T, error) {
	if err != nil {
		return nil, decodeError(route, err)
	}
	body, recycle, err := readBody(res.Body)
	defer recycle()
	_ = res.Body.Close()
	if err != nil {
		return nil, decodeError(route, err)
	}
	if ct := res.Header.Get("Content-Type"); !strings.Contains(ct, "json") {
		return nil, notJSONType(route, ct)
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

// notJSONType reports a 2xx answer of another media type than JSON (an
// HTML page when the URL reaches a web site, not Dagu's API), naming it.
func notJSONType(route, contentType string) *Error {
	mediaType, _, err := mime.ParseMediaType(contentType)
	if err != nil || mediaType == "" {
		mediaType = "no content type"
	}
	mediaType = clip(mediaType)
	return &Error{Route: route, Undecodable: true, ContentType: mediaType, Excerpt: "answer is not a JSON body (" + mediaType + ")"}
}

func isJSONNull(b []byte) bool { return string(bytes.TrimSpace(b)) == "null" }

// pooledBodyBytes is the size of the pooled buffers answers are read
// into: most answers fit (a run's details, a default log window, a page of
// DAGs); a longer one is read as before (see readBody).
const pooledBodyBytes = 32 << 10

var bodyBuffers = sync.Pool{New: func() any {
	b := make([]byte, pooledBodyBytes)
	return &b
}}

// firstReadBytes is the first read's size; each read that fills its space
// doubles the next, as io.ReadAll's reads grow, so an answer without a
// declared length reserves the body budget in steps that follow its size.
const firstReadBytes = 512

// readBody reads a whole body into a pooled buffer; recycle gives the
// buffer back once the caller is done with body. A body longer than the
// buffer continues through io.ReadAll (the pooled part first), so a long
// or hostile answer takes the memory and budget steps it took before.
func readBody(r io.Reader) (body []byte, recycle func(), err error) {
	buf := bodyBuffers.Get().(*[]byte)
	recycle = func() { bodyBuffers.Put(buf) }
	b := (*buf)[:0]
	for step := firstReadBytes; len(b) < cap(b); {
		end := min(len(b)+step, cap(b))
		n, err := r.Read(b[len(b):end])
		b = b[:len(b)+n]
		switch {
		case errors.Is(err, io.EOF):
			return b, recycle, nil
		case err != nil:
			return nil, recycle, err
		case len(b) == end:
			step *= 2
		}
	}
	body, err = io.ReadAll(io.MultiReader(bytes.NewReader(b), r))
	if err != nil {
		body = nil
	}
	return body, recycle, err
}
