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
	return encodeCursor(runCursorPrefix, wrappedRunCursor{Cursor: daguCursor, FromDate: fromDate})
}

// isWrappedRunCursor reports whether a cursor came from wrapRunCursor (or
// claims to).
func isWrappedRunCursor(cursor string) bool { return strings.HasPrefix(cursor, runCursorPrefix) }

// unwrapRunCursor reads a wrapped cursor. It accepts exactly what
// wrapRunCursor writes, with a non-empty Dagu cursor.
func unwrapRunCursor(cursor string) (wrappedRunCursor, error) {
	return decodeCursor(cursor, runCursorPrefix, func(w wrappedRunCursor) bool { return w.Cursor != "" })
}

// encodeCursor writes a gateway cursor: prefix, then the unpadded
// base64url of v's JSON.
func encodeCursor(prefix string, v any) string {
	raw, _ := json.Marshal(v)
	return prefix + base64.RawURLEncoding.EncodeToString(raw)
}

// decodeCursor reads a cursor encodeCursor wrote with prefix. It accepts
// exactly that: strict unpadded base64url of one JSON object with no
// unknown keys and nothing after it, whose value valid accepts; anything
// else is errBadRunCursor.
func decodeCursor[T any](cursor, prefix string, valid func(T) bool) (T, error) {
	var zero T
	encoded, ok := strings.CutPrefix(cursor, prefix)
	if !ok {
		return zero, errBadRunCursor
	}
	raw, err := base64.RawURLEncoding.Strict().DecodeString(encoded)
	if err != nil {
		return zero, errBadRunCursor
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	var v T
	if err := dec.Decode(&v); err != nil || !valid(v) {
		return zero, errBadRunCursor
	}
	if _, err := dec.Token(); err != io.EOF {
		return zero, errBadRunCursor
	}
	return v, nil
}
