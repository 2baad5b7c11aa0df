// SPDX-License-Identifier: Apache-2.0

package upstream

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// emulatedCursorPrefix marks a cursor of a list the gateway pages itself
// (an older Dagu answered the whole list at once).
const emulatedCursorPrefix = "gw2."

// emulatedCursor is the JSON inside such a cursor: where the next page
// starts, the filters it belongs to, and the implicit window start of a
// runs list (0 when the caller gave dates).
type emulatedCursor struct {
	Offset int    `json:"o"`
	Scope  string `json:"s"`
	From   int64  `json:"f,omitempty"`
}

// cursorScope fingerprints the filters a cursor is bound to, so it cannot
// be replayed against another query.
func cursorScope(parts ...string) string {
	h := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	return hex.EncodeToString(h[:8])
}

func encodeEmulatedCursor(c emulatedCursor) string { return encodeCursor(emulatedCursorPrefix, c) }

// decodeEmulatedCursor accepts exactly what encodeEmulatedCursor writes for
// the same scope; anything else is errBadRunCursor.
func decodeEmulatedCursor(cursor, scope string) (emulatedCursor, error) {
	return decodeCursor(cursor, emulatedCursorPrefix, func(c emulatedCursor) bool {
		return c.Offset > 0 && c.Offset <= emulatedMaxItems && c.Scope == scope
	})
}

// pageOf cuts one page from a list the gateway pages itself: items from
// offset, at most limit of them (all when limit is 0), and the offset of
// the next page (0 when this is the last).
func pageOf[T any](items []T, offset, limit int) ([]T, int) {
	offset = min(offset, len(items))
	end := len(items)
	if limit > 0 {
		end = min(offset+limit, len(items))
	}
	next := 0
	if end < len(items) {
		next = end
	}
	return items[offset:end], next
}
