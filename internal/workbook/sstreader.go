// SPDX-License-Identifier: Apache-2.0

package workbook

import (
	"context"
	"errors"
	"io"
)

// sstReader streams a sharedStrings part into a table. Rich-text runs of
// one item are concatenated; phonetic runs (rPh) are left out, as Excel
// shows only the base text.
type sstReader struct {
	sc         *xmlScanner
	table      *sharedStrings
	item       pieceText
	scratch    []byte // one decoded text token
	scratchMem charge
	inItem     bool
	inText     bool
	phonetic   int
	tokens     int
}

// readSharedStrings reads a shared string table within the budget mem
// (nil: unlimited). A cancelled ctx stops it.
func readSharedStrings(ctx context.Context, r io.Reader, mem *memoryBudget) (*sharedStrings, error) {
	sr := &sstReader{
		sc:         newXMLScanner(r, mem),
		table:      &sharedStrings{mem: charge{mem: mem}},
		scratchMem: charge{mem: mem},
	}
	defer sr.close()
	if err := sr.scratchMem.add(maxKeptTextBytes); err != nil {
		return nil, err
	}
	sr.item.head = make([]byte, 0, maxKeptTextBytes)
	if err := sr.run(ctx); err != nil {
		sr.table.mem.releaseAll()
		return nil, err
	}
	return sr.table, nil
}

// close releases the scanner and scratch buffers; the table stays.
func (sr *sstReader) close() {
	sr.sc.close()
	sr.scratchMem.releaseAll()
}

func (sr *sstReader) run(ctx context.Context) error {
	for {
		if err := sr.sc.next(); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		if err := sr.handle(); err != nil {
			return err
		}
		if sr.tokens++; sr.tokens%sstCtxCheckTokens == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		sr.sc.wantText = sr.inText
	}
}

func (sr *sstReader) handle() error {
	sc := sr.sc
	switch sc.kind {
	case tokenStart:
		return sr.handleStart()
	case tokenEnd:
		switch string(sc.name) {
		case "si", "sstItem":
			if sr.inItem {
				sr.inItem, sr.inText = false, false
				return sr.endItem()
			}
		case "rPh":
			sr.phonetic = max(0, sr.phonetic-1)
		case "t":
			sr.inText = false
		}
	case tokenText, tokenCDATA:
		if sr.inText {
			return sr.addText(sc.text, sc.kind == tokenCDATA)
		}
	}
	return nil
}

func (sr *sstReader) handleStart() error {
	sc := sr.sc
	switch string(sc.name) {
	case "si", "sstItem": // sstItem: the Office 2007 beta's name for si
		sr.inItem = true
		sr.item.reset()
		if sc.selfClosing {
			sr.inItem = false
			return sr.endItem()
		}
	case "rPh":
		if !sc.selfClosing {
			sr.phonetic++
		}
	case "t":
		sr.inText = sr.inItem && sr.phonetic == 0 && !sc.selfClosing
	}
	return nil
}

// addText decodes one text token into the scratch buffer and passes it
// to the current item.
func (sr *sstReader) addText(text []byte, literal bool) error {
	scratch, err := growSlice(&sr.scratchMem, sr.scratch[:0], len(text), 1)
	if err != nil {
		return err
	}
	sr.scratch = appendText(scratch, text, literal)
	sr.item.write(sr.scratch)
	return nil
}

func (sr *sstReader) endItem() error {
	shown, tail := sr.item.shown()
	return sr.table.add(shown, tail)
}
