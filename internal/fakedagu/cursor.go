// SPDX-License-Identifier: Apache-2.0

package fakedagu

import (
	"encoding/base64"
	"encoding/json"
	"errors"
)

// Dagu's cursors are base64url (unpadded) JSON documents that name the
// query they belong to; a cursor presented with a different query fails.

// searchCursorVersion is the version of DAG and wiki search cursors.
const searchCursorVersion = 1

// errBadCursor is any cursor that cannot be decoded or does not fit.
var errBadCursor = errors.New("invalid search cursor")

// encodeCursor serialises a cursor document.
func encodeCursor(v any) string {
	raw, err := json.Marshal(v)
	if err != nil {
		panic("fakedagu: cursor: " + err.Error())
	}
	return base64.RawURLEncoding.EncodeToString(raw)
}

// decodeCursor parses a cursor document into v.
func decodeCursor(cursor string, v any) error {
	raw, err := base64.RawURLEncoding.DecodeString(cursor)
	if err != nil {
		return errBadCursor
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return errBadCursor
	}
	return nil
}

// presentedCursor reads the cursor a search request presented: the zero
// cursor without one; one that does not decode, or that valid refuses (it
// belongs to another query, page or position), is answered 400.
func presentedCursor[C any](c *call, cursor string, valid func(C) bool) (cur C, ok bool) {
	if cursor == "" {
		return cur, true
	}
	if decodeCursor(cursor, &cur) != nil || !valid(cur) {
		c.badRequest(errBadCursor.Error())
		return cur, false
	}
	return cur, true
}

// dagSearchCursor continues a DAG search feed (FileName: the last DAG
// shown) or, with Offset > 0, the match list of one DAG.
type dagSearchCursor struct {
	V         int      `json:"v"`
	Q         string   `json:"q"`
	Workspace string   `json:"workspace,omitempty"`
	Labels    []string `json:"labels,omitempty"`
	FileName  string   `json:"fileName"`
	Offset    int      `json:"offset,omitempty"`
}

// wikiSearchCursor continues a wiki search feed (ID: the last page shown)
// or, with Offset > 0, the match list of one page.
type wikiSearchCursor struct {
	V         int      `json:"v"`
	Q         string   `json:"q"`
	Workspace string   `json:"workspace,omitempty"`
	Prefix    string   `json:"prefix,omitempty"`
	Tags      []string `json:"tags,omitempty"`
	ID        string   `json:"id"`
	Offset    int      `json:"offset,omitempty"`
}

// sameStrings reports whether two string lists are equal.
func sameStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
