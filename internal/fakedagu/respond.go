// SPDX-License-Identifier: Apache-2.0

package fakedagu

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
)

// call is one request being served by a route handler.
type call struct {
	w      http.ResponseWriter
	r      *http.Request
	params map[string]string // unescaped path parameters
	query  url.Values
}

// Error codes of Dagu's Error schema used by the read routes.
const (
	codeBadRequest = "bad_request"
	codeNotFound   = "not_found"
	codeForbidden  = "forbidden"
	codeInternal   = "internal_error"
)

// unclassifiedError is the message of Dagu's 500 for an error its handler
// does not classify.
const unclassifiedError = "An unexpected error occurred"

// json writes a JSON body with the given status.
func (c *call) json(status int, body any) {
	c.w.Header().Set("Content-Type", "application/json")
	c.w.WriteHeader(status)
	enc := json.NewEncoder(c.w)
	_ = enc.Encode(body)
}

// ok writes a 200 JSON body.
func (c *call) ok(body any) { c.json(http.StatusOK, body) }

// fail writes Dagu's JSON error body.
func (c *call) fail(status int, code, message string) {
	c.json(status, obj{"code": code, "message": message})
}

func (c *call) badRequest(message string) { c.fail(http.StatusBadRequest, codeBadRequest, message) }
func (c *call) notFound(message string)   { c.fail(http.StatusNotFound, codeNotFound, message) }

// text writes a plain-text body.
func (c *call) text(status int, body string) {
	c.w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	c.w.Header().Set("X-Content-Type-Options", "nosniff")
	c.w.WriteHeader(status)
	_, _ = c.w.Write([]byte(body))
}

// paramError answers a query parameter that failed type binding the way the
// generated router does: 400 with a plain-text message.
func (c *call) paramError(name string, err error) {
	c.text(http.StatusBadRequest, fmt.Sprintf("Invalid format for parameter %s: %s\n", name, err))
}

// requiredParamError answers a missing required query parameter.
func (c *call) requiredParamError(name string) {
	c.text(http.StatusBadRequest, fmt.Sprintf("Query argument %s is required, but not found\n", name))
}

// handlerPanic answers like a handler that panicked behind chi's
// recoverer: status 500 and no body.
func (c *call) handlerPanic() {
	c.w.WriteHeader(http.StatusInternalServerError)
}
