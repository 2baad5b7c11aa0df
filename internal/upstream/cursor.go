// SPDX-License-Identifier: Apache-2.0

package upstream

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"strings"
)

// runCursorPrefix marks a run-list cursor the gateway wrapped. Dagu binds
// its cursor to every filter, including the implicit fromDate the gateway
// adds to an unfiltered list; the wrapper carries that fromDate, so the next
// page is asked for with the same window even though the clock has moved.
const runCursorPrefix = "gw1."

// wrappedRunCursor is the JSON inside a wrapped cursor.
type wrappedRunCursor struct {
	// Cursor is Dagu's own cursor.
	Cursor string `json:"c"`
	// FromDate is the implicit fromDate (Unix seconds) of the first page.
	FromDate int64 `json:"f"`
}

var errBadRunCursor = errors.New("malformed gateway run cursor")

// wrapRunCursor wraps Dagu's cursor with the window start it belongs to.
func wrapRunCursor(daguCursor string, fromDate int64) string {
	raw, _ := json.Marshal(wrappedRunCursor{Cursor: daguCursor, FromDate: fromDate})
	return runCursorPrefix + base64.RawURLEncoding.EncodeToString(raw)
}

// isWrappedRunCursor reports whether a cursor came from wrapRunCursor (or
// claims to).
func isWrappedRunCursor(cursor string) bool { return strings.HasPrefix(cursor, runCursorPrefix) }

// unwrapRunCursor reads a wrapped cursor. It accepts exactly what
// wrapRunCursor writes: unpadded base64url of one JSON object with a
// non-empty Dagu cursor and no other keys.
func unwrapRunCursor(cursor string) (wrappedRunCursor, error) {
	encoded, ok := strings.CutPrefix(cursor, runCursorPrefix)
	if !ok {
		return wrappedRunCursor{}, errBadRunCursor
	}
	raw, err := base64.RawURLEncoding.Strict().DecodeString(encoded)
	if err != nil {
		return wrappedRunCursor{}, errBadRunCursor
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	var w wrappedRunCursor
	if err := dec.Decode(&w); err != nil || w.Cursor == "" {
		return wrappedRunCursor{}, errBadRunCursor
	}
	if _, err := dec.Token(); err != io.EOF {
		return wrappedRunCursor{}, errBadRunCursor
	}
	return w, nil
}
