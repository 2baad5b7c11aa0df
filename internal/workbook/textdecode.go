// SPDX-License-Identifier: Apache-2.0

package workbook

import (
	"bytes"
	"unicode/utf8"
)

// appendText appends character data, decoding XML entities unless literal
// (CDATA), then the OOXML `_xHHHH_` escapes of control characters; line
// ends are normalised either way. It appends at most len(text) bytes.
func appendText(dst, text []byte, literal bool) []byte {
	start := len(dst)
	if literal {
		dst = appendLiteral(dst, text)
	} else {
		dst = appendUnescaped(dst, text)
	}
	if bytes.Contains(dst[start:], ooxmlEscapeStart) {
		n := decodeOOXMLEscapes(dst[start:])
		dst = dst[:start+n]
	}
	return dst
}

var ooxmlEscapeStart = []byte("_x")

// decodeOOXMLEscapes replaces, in place, each `_xHHHH_` (a UTF-16 code
// unit written as four hex digits) with its character; `_x005F_` is the
// escaped underscore itself. It returns the decoded length, which is never
// more than the input's.
func decodeOOXMLEscapes(text []byte) int {
	w := 0
	for i := 0; i < len(text); {
		if r, ok := ooxmlEscapeAt(text[i:]); ok {
			w += utf8.EncodeRune(text[w:], r)
			i += 7
			continue
		}
		text[w] = text[i]
		w++
		i++
	}
	return w
}

func ooxmlEscapeAt(b []byte) (rune, bool) {
	if len(b) < 7 || b[0] != '_' || b[1] != 'x' || b[6] != '_' {
		return 0, false
	}
	var n rune
	for _, c := range b[2:6] {
		d, ok := hexDigit(c)
		if !ok {
			return 0, false
		}
		n = n<<4 | rune(d)
	}
	return n, true
}

func hexDigit(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}
