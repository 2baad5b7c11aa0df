// SPDX-License-Identifier: Apache-2.0

package readtool

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"
)

// Bounds of the unknown-field echo: an arguments object may carry any
// number of keys of any length, and the error names only a few of them.
const (
	maxEchoedUnknown  = 8  // unknown field names listed in the error
	maxEchoedNameRune = 64 // characters of one listed name
)

// unknownFields are the keys of the arguments object the contract does not
// know: the first few names seen and how many there were.
type unknownFields struct {
	names []string
	count int
}

func (u *unknownFields) add(name string) {
	u.count++
	if len(u.names) < maxEchoedUnknown {
		u.names = append(u.names, echoedName(name))
	}
}

// decodeArguments reads the top-level JSON object raw into its known
// fields, counting the unknown ones without keeping them: memory stays
// bounded by the contract's fields, whatever the number of keys sent. As
// with a map, a repeated key keeps its last value. ok is false when raw is
// not exactly one JSON object.
func decodeArguments(raw []byte) (known map[string]json.RawMessage, unknown unknownFields, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, unknown, false
	}
	known = map[string]json.RawMessage{}
	var skipped json.RawMessage // reused: an unknown value is read and dropped
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, unknown, false
		}
		key, _ := tok.(string)
		if !knownFields[key] {
			unknown.add(key)
			if dec.Decode(&skipped) != nil {
				return nil, unknown, false
			}
			continue
		}
		var value json.RawMessage
		if dec.Decode(&value) != nil {
			return nil, unknown, false
		}
		known[key] = value
	}
	if _, err := dec.Token(); err != nil || dec.More() {
		return nil, unknown, false
	}
	return known, unknown, true
}

// unknownFieldsError names the unknown fields: one by its name (the
// contract's field), several as details.fields, sorted, with the count
// when there were more than the error lists.
func unknownFieldsError(u unknownFields) *Error {
	names := append([]string(nil), u.names...)
	sort.Strings(names)
	if u.count == 1 {
		return newError(CodeInvalidToolInput, fmt.Sprintf("Unknown field %s.", names[0])).withField(names[0])
	}
	details := map[string]any{"fields": names}
	message := "Unknown fields: " + strings.Join(names, ", ") + "."
	if more := u.count - len(names); more > 0 {
		details["count"] = u.count
		message = fmt.Sprintf("Unknown fields: %s and %d more (%d in all).", strings.Join(names, ", "), more, u.count)
	}
	return newError(CodeInvalidToolInput, message).withDetails(details)
}

// echoedName is a field name as the error shows it: cut to
// maxEchoedNameRune characters, with an ellipsis where it was cut.
func echoedName(name string) string {
	if utf8.RuneCountInString(name) <= maxEchoedNameRune {
		return name
	}
	cut, n := 0, 0
	for cut < len(name) && n < maxEchoedNameRune {
		_, size := utf8.DecodeRuneInString(name[cut:])
		cut += size
		n++
	}
	return name[:cut] + "…"
}
