// SPDX-License-Identifier: Apache-2.0

package workbook

import (
	"bytes"
	"io"
	"strconv"
	"unicode/utf8"
)

// This file holds a minimal streaming XML tokenizer for the two large
// parts of a workbook, worksheets and the shared string table. It knows
// just enough XML for machine-written OOXML: elements, attributes,
// character data with the predefined and numeric entities, CDATA sections,
// comments and processing instructions. It does not validate nesting and
// does not expand DTD entities (a document type declaration is skipped
// whole and noted to a source that asks, see doctypeNoter); callers track
// the elements they care about, and resolve namespaces where it matters
// (see namespaces.go).

type tokenKind uint8

const (
	tokenStart tokenKind = iota + 1 // <name attr="v"> or <name/>
	tokenEnd                        // </name>
	tokenText                       // character data, entities not yet decoded
	tokenCDATA                      // CDATA contents, literal
)

const (
	scannerBufferSize = 64 << 10
	// maxXMLTokenBytes bounds one tag or one run of character data.
	maxXMLTokenBytes = 8 << 20
	// textChunkBytes is the longest piece of wanted text one token holds.
	textChunkBytes = 32 << 10
	// textCutGuard is how many bytes before a cut in text must hold no
	// '&', '_' or CR: an entity reference is decoded with its next 12
	// bytes, an _xHHHH_ escape is 7 bytes long, and a CR may start a CRLF.
	textCutGuard = 13
	// textCutSearch is how far back from textChunkBytes a cut is looked for.
	textCutSearch = 1 << 10
)

var (
	errXMLTokenTooLarge error = &formatError{msg: "an XML tag or text run is longer than 8 MiB"}
	errXMLUnterminated  error = &formatError{msg: "its XML ends inside a tag, comment or CDATA section"}
)

// xmlScanner tokenizes an XML stream. The slices of the current token
// (name, attrs, text) stay valid only until the next call to next.
type xmlScanner struct {
	src      io.Reader
	buf      []byte
	mem      charge // the buffer's reservation
	pos, end int
	srcDone  bool
	srcErr   error

	// wantText makes next return character data; when false, character
	// data is skipped without being buffered.
	wantText bool

	kind        tokenKind
	name        []byte // local name, without a namespace prefix
	prefix      []byte // namespace prefix of a start or end tag, "" for none
	attrs       []byte // raw attribute text of a start tag
	selfClosing bool
	text        []byte
}

// doctypeNoter is a source that wants to know when its XML declares a
// document type (a DTD, whose entities the scanner never expands).
type doctypeNoter interface{ noteDoctype() }

// newXMLScanner returns a scanner over r whose buffer is reserved against
// mem (nil: unlimited) before it is allocated or grown. Call close to
// release it.
func newXMLScanner(r io.Reader, mem *memoryBudget) *xmlScanner {
	return &xmlScanner{src: r, mem: charge{mem: mem}}
}

// close releases the scanner's buffer.
func (s *xmlScanner) close() {
	s.buf = nil
	s.mem.releaseAll()
}

// next advances to the next token. It returns io.EOF at the end of input.
func (s *xmlScanner) next() error {
	for {
		if s.pos >= s.end && !s.fill() {
			return s.endErr()
		}
		if s.buf[s.pos] != '<' {
			if done, err := s.scanText(); done || err != nil {
				return err
			}
			continue
		}
		if done, err := s.scanMarkup(); done || err != nil {
			return err
		}
	}
}

// endErr reports why input ended: a read error, or io.EOF.
func (s *xmlScanner) endErr() error {
	if s.srcErr != nil {
		return s.srcErr
	}
	return io.EOF
}

// fill moves unread bytes to the front of the buffer, grows it when full
// and reads more input. It returns false when no more input arrived.
func (s *xmlScanner) fill() bool {
	if s.srcDone {
		return false
	}
	if s.pos > 0 {
		s.end = copy(s.buf, s.buf[s.pos:s.end])
		s.pos = 0
	}
	if s.end == len(s.buf) {
		if err := s.grow(); err != nil {
			s.srcDone, s.srcErr = true, err
			return false
		}
	}
	for {
		n, err := s.src.Read(s.buf[s.end:])
		s.end += n
		if err != nil {
			s.srcDone = true
			if err != io.EOF {
				s.srcErr = err
			}
			return n > 0
		}
		if n > 0 {
			return true
		}
	}
}

// grow allocates the buffer, or doubles it up to maxXMLTokenBytes,
// reserving the new buffer before allocating it.
func (s *xmlScanner) grow() error {
	size := scannerBufferSize
	if s.buf != nil {
		if len(s.buf) >= maxXMLTokenBytes {
			return errXMLTokenTooLarge
		}
		size = min(2*len(s.buf), maxXMLTokenBytes)
	}
	if err := s.mem.add(int64(size)); err != nil {
		return err
	}
	grown := make([]byte, size)
	copy(grown, s.buf[:s.end])
	s.mem.drop(int64(len(s.buf)))
	s.buf = grown
	return nil
}

// scanText handles character data at s.pos. Wanted text longer than
// textChunkBytes arrives in pieces (see textPiece), so a long text never
// has to be buffered whole.
func (s *xmlScanner) scanText() (bool, error) {
	searched := 0
	for {
		if i := bytes.IndexByte(s.buf[s.pos+searched:s.end], '<'); i >= 0 {
			return s.emitText(s.textPiece(searched + i)), nil
		}
		if !s.wantText {
			s.pos = s.end
			return false, nil
		}
		if n := s.end - s.pos; n > textChunkBytes {
			if piece := s.textPiece(n); piece < n {
				return s.emitText(piece), nil
			}
		}
		searched = s.end - s.pos
		if !s.fill() {
			if s.srcErr != nil {
				return false, s.srcErr
			}
			return s.emitText(s.textPiece(s.end - s.pos)), nil
		}
	}
}

// textPiece returns how much of the n bytes of wanted text at s.pos the
// next token holds: all of them up to textChunkBytes, else the longest
// first piece of at most textChunkBytes that ends where no entity
// reference, _xHHHH_ escape or CRLF can be split, so decoding the pieces
// one by one decodes the text. The cut depends on the text alone, not on how it
// was read. Text with no such cut point is not split.
func (s *xmlScanner) textPiece(n int) int {
	if !s.wantText || n <= textChunkBytes {
		return n
	}
	text := s.buf[s.pos : s.pos+textChunkBytes]
	for cut := len(text); cut > len(text)-textCutSearch; cut-- {
		if !bytes.ContainsAny(text[cut-textCutGuard:cut], "&_\r") {
			return cut
		}
	}
	return n
}

func (s *xmlScanner) emitText(n int) bool {
	text := s.buf[s.pos : s.pos+n]
	s.pos += n
	if !s.wantText {
		return false
	}
	s.kind, s.text = tokenText, text
	return true
}

// scanMarkup handles the markup that starts at s.pos.
func (s *xmlScanner) scanMarkup() (bool, error) {
	if !s.ensure(2) {
		return false, s.unterminated()
	}
	switch s.buf[s.pos+1] {
	case '/':
		return s.scanEndTag()
	case '?':
		return false, s.skipPast(2, "?>")
	case '!':
		return s.scanBang()
	}
	return s.scanStartTag()
}

func (s *xmlScanner) scanEndTag() (bool, error) {
	gt := s.indexByteFrom(2, '>')
	if gt < 0 {
		return false, s.unterminated()
	}
	s.kind = tokenEnd
	s.prefix, s.name = splitQName(trimXMLSpace(s.buf[s.pos+2 : s.pos+gt]))
	s.pos += gt + 1
	return true, nil
}

func (s *xmlScanner) scanBang() (bool, error) {
	const cdataOpen = "<![CDATA["
	s.ensure(len(cdataOpen))
	rest := s.buf[s.pos:s.end]
	switch {
	case bytes.HasPrefix(rest, []byte("<!DOCTYPE")):
		if noter, ok := s.src.(doctypeNoter); ok {
			noter.noteDoctype()
		}
		return false, s.skipDoctype()
	case bytes.HasPrefix(rest, []byte("<!--")):
		return false, s.skipPast(4, "-->")
	case bytes.HasPrefix(rest, []byte(cdataOpen)):
		closeAt := s.indexFrom(len(cdataOpen), "]]>")
		if closeAt < 0 {
			return false, s.unterminated()
		}
		text := s.buf[s.pos+len(cdataOpen) : s.pos+closeAt]
		s.pos += closeAt + 3
		if !s.wantText {
			return false, nil
		}
		s.kind, s.text = tokenCDATA, text
		return true, nil
	}
	return false, s.skipPast(2, ">")
}

func (s *xmlScanner) scanStartTag() (bool, error) {
	gt := s.tagEnd()
	if gt < 0 {
		return false, s.unterminated()
	}
	tag := s.buf[s.pos+1 : s.pos+gt]
	s.pos += gt + 1
	s.selfClosing = len(tag) > 0 && tag[len(tag)-1] == '/'
	if s.selfClosing {
		tag = tag[:len(tag)-1]
	}
	nameEnd := 0
	for nameEnd < len(tag) && !isXMLSpace(tag[nameEnd]) {
		nameEnd++
	}
	s.kind = tokenStart
	s.prefix, s.name = splitQName(tag[:nameEnd])
	s.attrs = tag[nameEnd:]
	return true, nil
}

// tagEnd returns the offset from s.pos of the '>' closing a start tag,
// skipping any '>' inside quoted attribute values; -1 when input ends.
func (s *xmlScanner) tagEnd() int {
	return s.markupEnd(false)
}

// skipDoctype skips a document type declaration whole: its internal
// subset in brackets, and the quoted entity values in it, may hold '>'.
func (s *xmlScanner) skipDoctype() error {
	end := s.markupEnd(true)
	if end < 0 {
		return s.unterminated()
	}
	s.pos += end + 1
	return nil
}

// markupEnd returns the offset from s.pos of the '>' that closes the
// markup there, outside quotes and, when brackets, outside [...]; -1 when
// input ends. Scanning resumes where it stopped when more input arrives.
func (s *xmlScanner) markupEnd(brackets bool) int {
	var quote byte
	depth := 0
	for i := 1; ; {
		for ; s.pos+i < s.end; i++ {
			c := s.buf[s.pos+i]
			switch {
			case quote != 0:
				if c == quote {
					quote = 0
				}
			case c == '"' || c == '\'':
				quote = c
			case brackets && c == '[':
				depth++
			case brackets && c == ']' && depth > 0:
				depth--
			case c == '>' && depth == 0:
				return i
			}
		}
		if !s.fill() {
			return -1
		}
	}
}

// ensure makes at least n bytes from s.pos available, if input allows.
func (s *xmlScanner) ensure(n int) bool {
	for s.end-s.pos < n {
		if !s.fill() {
			return false
		}
	}
	return true
}

// indexFrom returns the offset from s.pos of sep, searching from offset
// from and reading more input as needed; -1 when input ends first.
func (s *xmlScanner) indexFrom(from int, sep string) int {
	for {
		if from <= s.end-s.pos {
			if i := bytes.Index(s.buf[s.pos+from:s.end], []byte(sep)); i >= 0 {
				return from + i
			}
			// An occurrence may straddle the end of what is buffered.
			from = max(from, s.end-s.pos-len(sep)+1)
		}
		if !s.fill() {
			return -1
		}
	}
}

func (s *xmlScanner) skipPast(from int, sep string) error {
	i := s.indexFrom(from, sep)
	if i < 0 {
		return s.unterminated()
	}
	s.pos += i + len(sep)
	return nil
}

func (s *xmlScanner) unterminated() error {
	if s.srcErr != nil {
		return s.srcErr
	}
	return errXMLUnterminated
}

// localName drops a namespace prefix such as "x:" from a name.
func localName(name []byte) []byte {
	_, local := splitQName(name)
	return local
}

// splitQName splits a qualified name such as "x15:workbookPr" into its
// prefix ("x15", or empty) and its local name.
func splitQName(name []byte) (prefix, local []byte) {
	if i := bytes.IndexByte(name, ':'); i >= 0 {
		return name[:i], name[i+1:]
	}
	return nil, name
}

// nextAttr parses the first attribute of raw attribute text. It returns
// the attribute's local name, its raw (undecoded) value and the remaining
// text; ok is false when no well-formed attribute is left.
func nextAttr(raw []byte) (name, value, rest []byte, ok bool) {
	qname, value, rest, ok := nextQAttr(raw)
	return localName(qname), value, rest, ok
}

// nextQAttr is nextAttr with the attribute's qualified name, prefix and
// all ("xmlns:x15").
func nextQAttr(raw []byte) (qname, value, rest []byte, ok bool) {
	raw = skipSpace(raw)
	eq := bytes.IndexByte(raw, '=')
	if eq <= 0 {
		return nil, nil, nil, false
	}
	qname = bytes.TrimSpace(raw[:eq])
	after := skipSpace(raw[eq+1:])
	if len(after) == 0 || (after[0] != '"' && after[0] != '\'') {
		return nil, nil, nil, false
	}
	closing := bytes.IndexByte(after[1:], after[0])
	if closing < 0 {
		return nil, nil, nil, false
	}
	return qname, after[1 : 1+closing], after[2+closing:], true
}

// indexByteFrom is indexFrom for a one-byte separator.
func (s *xmlScanner) indexByteFrom(from int, c byte) int {
	for {
		if from <= s.end-s.pos {
			if i := bytes.IndexByte(s.buf[s.pos+from:s.end], c); i >= 0 {
				return from + i
			}
			from = s.end - s.pos
		}
		if !s.fill() {
			return -1
		}
	}
}

func isXMLSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\n'
}

// trimXMLSpace drops leading and trailing XML white space.
func trimXMLSpace(b []byte) []byte {
	b = skipSpace(b)
	for len(b) > 0 && isXMLSpace(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	return b
}

// skipSpace drops leading XML white space.
func skipSpace(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t' || b[0] == '\r' || b[0] == '\n') {
		b = b[1:]
	}
	return b
}

// appendUnescaped appends text to dst with XML entity references decoded
// and line ends normalised (see appendLiteral). An unknown or malformed
// reference is kept literally.
func appendUnescaped(dst, text []byte) []byte {
	for {
		amp := bytes.IndexByte(text, '&')
		if amp < 0 {
			return appendLiteral(dst, text)
		}
		dst = appendLiteral(dst, text[:amp])
		text = text[amp:]
		semi := bytes.IndexByte(text, ';')
		if semi < 0 || semi > 12 {
			dst = append(dst, '&')
			text = text[1:]
			continue
		}
		if r, ok := decodeEntity(text[1:semi]); ok {
			dst = utf8.AppendRune(dst, r)
		} else {
			dst = append(dst, text[:semi+1]...)
		}
		text = text[semi+1:]
	}
}

// appendLiteral appends literal character data with XML's end-of-line
// normalisation (XML 1.0, 2.11): a CRLF and a lone CR become LF, as every
// XML parser reads them. A CR written as a reference (&#13;) or an OOXML
// escape (_x000D_) is not literal and stays, so Excel's "_x000D_" before a
// literal CRLF reads as one CRLF, not CR CR LF.
func appendLiteral(dst, text []byte) []byte {
	for {
		i := bytes.IndexByte(text, '\r')
		if i < 0 {
			return append(dst, text...)
		}
		dst = append(append(dst, text[:i]...), '\n')
		text = text[i+1:]
		if len(text) > 0 && text[0] == '\n' {
			text = text[1:]
		}
	}
}

func decodeEntity(ref []byte) (rune, bool) {
	switch string(ref) {
	case "lt":
		return '<', true
	case "gt":
		return '>', true
	case "amp":
		return '&', true
	case "quot":
		return '"', true
	case "apos":
		return '\'', true
	}
	if len(ref) < 2 || ref[0] != '#' {
		return 0, false
	}
	digits, base := ref[1:], 10
	if digits[0] == 'x' || digits[0] == 'X' {
		digits, base = digits[1:], 16
	}
	n, err := strconv.ParseUint(string(digits), base, 32)
	if err != nil || !utf8.ValidRune(rune(n)) {
		return 0, false
	}
	return rune(n), true
}
