package workbook

import (
	"bytes"
	"errors"
	"io"
	"strconv"
	"unicode/utf8"
)

// sharedStrings is the workbook's shared string table, stored as one byte
// arena plus end offsets to keep per-string overhead low.
type sharedStrings struct {
	arena []byte
	ends  []int
}

// len returns the number of strings.
func (t *sharedStrings) len() int { return len(t.ends) }

// bytes returns string i (valid until the table is dropped); ok is false
// for an index outside the table.
func (t *sharedStrings) bytes(i int) ([]byte, bool) {
	if t == nil || i < 0 || i >= len(t.ends) {
		return nil, false
	}
	start := 0
	if i > 0 {
		start = t.ends[i-1]
	}
	return t.arena[start:t.ends[i]], true
}

// readSharedStrings streams a sharedStrings part. Rich-text runs of one
// item are concatenated; phonetic runs (rPh) are left out, as Excel shows
// only the base text.
func readSharedStrings(r io.Reader) (*sharedStrings, error) {
	sc := newXMLScanner(r)
	table := &sharedStrings{}
	var inItem, inText bool
	phoneticDepth := 0
	for {
		err := sc.next()
		if errors.Is(err, io.EOF) {
			return table, nil
		}
		if err != nil {
			return nil, err
		}
		switch sc.kind {
		case tokenStart:
			switch string(sc.name) {
			case "si":
				inItem = true
				if sc.selfClosing {
					table.ends = append(table.ends, len(table.arena))
					inItem = false
				}
			case "rPh":
				if !sc.selfClosing {
					phoneticDepth++
				}
			case "t":
				inText = inItem && phoneticDepth == 0 && !sc.selfClosing
			}
		case tokenEnd:
			switch string(sc.name) {
			case "si":
				if inItem {
					table.ends = append(table.ends, len(table.arena))
				}
				inItem, inText = false, false
			case "rPh":
				phoneticDepth = max(0, phoneticDepth-1)
			case "t":
				inText = false
			}
		case tokenText:
			if inText {
				table.arena = appendText(table.arena, sc.text, false)
			}
		case tokenCDATA:
			if inText {
				table.arena = appendText(table.arena, sc.text, true)
			}
		}
		sc.wantText = inText
	}
}

// appendText appends character data, decoding XML entities unless literal
// (CDATA), then the OOXML `_xHHHH_` escapes of control characters.
func appendText(dst, text []byte, literal bool) []byte {
	start := len(dst)
	if literal {
		dst = append(dst, text...)
	} else {
		dst = appendUnescaped(dst, text)
	}
	if bytes.Contains(dst[start:], []byte("_x")) {
		decoded := decodeOOXMLEscapes(dst[start:])
		dst = append(dst[:start], decoded...)
	}
	return dst
}

// decodeOOXMLEscapes replaces each `_xHHHH_` (a UTF-16 code unit written
// as four hex digits) with its character; `_x005F_` is the escaped
// underscore itself.
func decodeOOXMLEscapes(text []byte) []byte {
	out := make([]byte, 0, len(text))
	for i := 0; i < len(text); {
		if r, ok := ooxmlEscapeAt(text[i:]); ok {
			out = utf8.AppendRune(out, r)
			i += 7
			continue
		}
		out = append(out, text[i])
		i++
	}
	return out
}

func ooxmlEscapeAt(b []byte) (rune, bool) {
	if len(b) < 7 || b[0] != '_' || b[1] != 'x' || b[6] != '_' {
		return 0, false
	}
	n, err := strconv.ParseUint(string(b[2:6]), 16, 16)
	if err != nil {
		return 0, false
	}
	return rune(n), true
}
