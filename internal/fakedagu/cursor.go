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
