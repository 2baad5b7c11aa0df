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
// bounded by the contract's fields, whatever the number of keys sent. The
// input is validated first (encoding/json.Valid, which allocates nothing),
// then walked once without decoding what it skips. As with a map, a
// repeated key keeps its last value. ok is false when raw is not exactly
// one JSON object.
func decodeArguments(raw []byte) (known map[string]json.RawMessage, unknown unknownFields, ok bool) {
	if !json.Valid(raw) {
		return nil, unknown, false
	}
	w := jsonWalker{b: raw}
	if w.next() != '{' {
		return nil, unknown, false
	}
	w.i++
	known = map[string]json.RawMessage{}
	for w.next() == '"' {
		key := w.skip()
		w.next() // the colon
		w.i++
		w.next()
		value := w.skip()
		if name, isKnown := knownName(key); isKnown {
			known[name] = value
		} else {
			unknown.addRaw(key)
		}
		if w.next() == ',' {
			w.i++
			w.next()
		}
	}
	return known, unknown, true
}

// knownName is the field a raw JSON key names when the contract knows it.
// A key without escapes is looked up without being copied.
func knownName(key []byte) (string, bool) {
	inner := key[1 : len(key)-1]
	if bytes.IndexByte(inner, '\\') < 0 {
		if !knownFields[string(inner)] {
			return "", false
		}
		return string(inner), true
	}
	name := unescapeKey(key)
	return name, knownFields[name]
}

// unescapeKey decodes a raw JSON key that json.Valid accepted.
func unescapeKey(key []byte) string {
	var name string
	_ = json.Unmarshal(key, &name)
	return name
}

// addRaw counts an unknown raw JSON key, copying its name only while the
// error still lists names.
func (u *unknownFields) addRaw(key []byte) {
	if len(u.names) < maxEchoedUnknown {
		u.add(unescapeKey(key))
		return
	}
	u.count++
}

// jsonWalker steps through JSON that json.Valid accepted, without
// decoding it.
type jsonWalker struct {
	b []byte
	i int
}

// next skips white space and returns the byte there (0 at the end).
func (w *jsonWalker) next() byte {
	for w.i < len(w.b) {
		switch c := w.b[w.i]; c {
		case ' ', '\t', '\n', '\r':
			w.i++
		default:
			return c
		}
	}
	return 0
}

// skip steps over the value that starts here and returns its bytes.
func (w *jsonWalker) skip() []byte {
	start := w.i
	switch w.b[w.i] {
	case '"':
		w.skipString()
	case '{', '[':
		w.skipNested()
	default:
		for w.i < len(w.b) && strings.IndexByte(",}] \t\n\r", w.b[w.i]) < 0 {
			w.i++
		}
	}
	return w.b[start:w.i]
}

func (w *jsonWalker) skipString() {
	w.i++ // the opening quote
	for w.b[w.i] != '"' {
		if w.b[w.i] == '\\' {
			w.i++
		}
		w.i++
	}
	w.i++
}

func (w *jsonWalker) skipNested() {
	depth := 0
	for {
		switch w.b[w.i] {
		case '"':
			w.skipString()
			continue
		case '{', '[':
			depth++
		case '}', ']':
			depth--
		}
		w.i++
		if depth == 0 {
			return
		}
	}
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
