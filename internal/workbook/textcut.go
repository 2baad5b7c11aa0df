// SPDX-License-Identifier: Apache-2.0

package workbook

import (
	"hash/maphash"
	"unicode/utf8"
)

// Every text the profile keeps (a cell value, header, sample value,
// listed value, odd cell, sheet, table or defined name) is cut to its
// first maxTextRunes characters followed by textCutMarker, so the answer
// stays small whatever the workbook holds; a warning says how many were
// cut. Excel itself allows 32,767 characters in a cell.
//
// Distinct counts stay exact for cut texts: a cut value carries a hash of
// its whole text, so two long texts that share their first 256 characters
// still count as two values (up to a 64-bit hash collision).
const (
	maxTextRunes  = 256
	textCutMarker = "…"
	// maxKeptTextBytes is the most bytes the first maxTextRunes characters
	// take, plus one more character: enough to cut any text the same way
	// from its beginning alone.
	maxKeptTextBytes = (maxTextRunes + 1) * utf8.UTFMax
)

// textSeed seeds the hashes of cut texts; they are compared only within
// one process.
var textSeed = maphash.MakeSeed()

// keptLen returns the length in bytes of the first maxTextRunes characters
// of b (an invalid byte counts as one character).
func keptLen(b []byte) int {
	if len(b) <= maxTextRunes {
		return len(b)
	}
	i := 0
	for range maxTextRunes {
		if i >= len(b) {
			break
		}
		if b[i] < utf8.RuneSelf {
			i++
			continue
		}
		_, size := utf8.DecodeRune(b[i:])
		i += size
	}
	return i
}

// cutBytes returns a text as the profile shows it and, when it had to cut
// the text, a non-zero hash of the whole text (else 0).
func cutBytes(b []byte) (string, uint64) {
	n := keptLen(b)
	if n == len(b) {
		return string(b), 0
	}
	return string(b[:n]) + textCutMarker, maphash.Bytes(textSeed, b) | 1
}

// cutString cuts a name or message the profile shows; cut reports whether
// it had to.
func cutString(s string) (shown string, cut bool) {
	if len(s) <= maxTextRunes {
		return s, false
	}
	count := 0
	for i := range s {
		if count == maxTextRunes {
			return s[:i] + textCutMarker, true
		}
		count++
	}
	return s, false
}

// pieceText collects one text that arrives in pieces (the runs of a rich
// shared string) without holding it whole: it keeps the first
// maxKeptTextBytes bytes and hashes the whole text once it is longer.
// Its result equals cutBytes over the whole text.
type pieceText struct {
	head    []byte
	hashing bool
	hash    maphash.Hash
}

func (p *pieceText) reset() {
	p.head = p.head[:0]
	p.hashing = false
}

func (p *pieceText) write(b []byte) {
	if !p.hashing && len(p.head)+len(b) <= maxKeptTextBytes {
		p.head = append(p.head, b...)
		return
	}
	if !p.hashing {
		p.hashing = true
		p.hash.SetSeed(textSeed)
		p.hash.Write(p.head)
	}
	p.hash.Write(b)
	if room := maxKeptTextBytes - len(p.head); room > 0 {
		p.head = append(p.head, b[:min(room, len(b))]...)
	}
}

// shown returns the text as the profile shows it (valid until the next
// reset) and its hash when cut, else 0.
func (p *pieceText) shown() ([]byte, uint64) {
	n := keptLen(p.head)
	switch {
	case p.hashing:
		return append(p.head[:n], textCutMarker...), p.hash.Sum64() | 1
	case n < len(p.head):
		tail := maphash.Bytes(textSeed, p.head) | 1
		return append(p.head[:n], textCutMarker...), tail
	}
	return p.head, 0
}
