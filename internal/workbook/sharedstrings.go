// SPDX-License-Identifier: Apache-2.0

package workbook

import "unsafe"

// Shared string storage. Items and their text live in fixed-size pages,
// so the table grows without ever copying itself and every page is
// reserved against the read's memory budget before it is allocated. A
// string costs 8 bytes plus its text, so a table of millions of short
// strings stays compact. Each string keeps only the text the profile can
// show (see textcut.go): a table of 250 strings of 1 MiB costs about
// 250 KiB.
const (
	sstItemsPerPage = 4096
	sstTextPageBits = 16
	sstTextPageSize = 1 << sstTextPageBits
	sstMaxTextPages = 1 << (32 - sstTextPageBits)
	sstItemSize     = int64(unsafe.Sizeof(sstItem{}))
	// sstPageHeader covers a page's entry in the page lists, growth
	// included.
	sstPageHeader = 64
	// costSSTTail is one entry in the map of cut strings' hashes.
	costSSTTail = 48
	// sstCtxCheckTokens is how many tokens pass between two context checks.
	sstCtxCheckTokens = 1 << 16
)

// sstItem locates one string's shown text: start is its text page in the
// high bits and its offset in the page in the low sstTextPageBits.
type sstItem struct {
	start uint32
	n     uint16
}

// sharedStrings is the workbook's shared string table. tails holds the
// hash of the whole text of each string that was cut.
type sharedStrings struct {
	items [][]sstItem
	text  [][]byte
	tails map[int]uint64
	count int
	mem   charge
}

// len returns the number of strings.
func (t *sharedStrings) len() int {
	if t == nil {
		return 0
	}
	return t.count
}

// get returns string i as the profile shows it (valid until the table is
// dropped) and its cut hash; ok is false for an index outside the table.
func (t *sharedStrings) get(i int) (text []byte, tail uint64, ok bool) {
	if t == nil || i < 0 || i >= t.count {
		return nil, 0, false
	}
	item := t.items[i/sstItemsPerPage][i%sstItemsPerPage]
	if item.n == 0 {
		return nil, 0, true
	}
	page, off := item.start>>sstTextPageBits, item.start&(sstTextPageSize-1)
	return t.text[page][off : off+uint32(item.n)], t.tails[i], true
}

// add appends one string, reserving a new page when the current one is
// full.
func (t *sharedStrings) add(shown []byte, tail uint64) error {
	if t.count%sstItemsPerPage == 0 {
		if err := t.mem.add(sstItemsPerPage*sstItemSize + sstPageHeader); err != nil {
			return err
		}
		t.items = append(t.items, make([]sstItem, sstItemsPerPage))
	}
	item := sstItem{n: uint16(len(shown))}
	if len(shown) > 0 {
		start, err := t.addText(shown)
		if err != nil {
			return err
		}
		item.start = start
	}
	if tail != 0 {
		if err := t.addTail(tail); err != nil {
			return err
		}
	}
	t.items[len(t.items)-1][t.count%sstItemsPerPage] = item
	t.count++
	return nil
}

// addText stores a shown text (at most maxKeptTextBytes and the marker)
// and returns where it starts.
func (t *sharedStrings) addText(shown []byte) (uint32, error) {
	last := len(t.text) - 1
	if last < 0 || len(t.text[last])+len(shown) > sstTextPageSize {
		if len(t.text) == sstMaxTextPages {
			return 0, t.mem.mem.exhaust()
		}
		if err := t.mem.add(sstTextPageSize + sstPageHeader); err != nil {
			return 0, err
		}
		t.text = append(t.text, make([]byte, 0, sstTextPageSize))
		last++
	}
	start := uint32(last)<<sstTextPageBits | uint32(len(t.text[last]))
	t.text[last] = append(t.text[last], shown...)
	return start, nil
}

// addTail records the whole-text hash of the string being added.
func (t *sharedStrings) addTail(tail uint64) error {
	if err := t.mem.add(costSSTTail); err != nil {
		return err
	}
	if t.tails == nil {
		t.tails = make(map[int]uint64)
	}
	t.tails[t.count] = tail
	return nil
}

// footprint returns the bytes the table's pages occupy, for tests to
// compare with what it reserved.
func (t *sharedStrings) footprint() int64 {
	total := int64(len(t.items)+len(t.text))*sstPageHeader + int64(len(t.tails))*costSSTTail
	for _, p := range t.items {
		total += int64(cap(p)) * sstItemSize
	}
	for _, p := range t.text {
		total += int64(cap(p))
	}
	return total
}
