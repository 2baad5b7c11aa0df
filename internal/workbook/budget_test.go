// SPDX-License-Identifier: Apache-2.0

package workbook

import (
	"context"
	"encoding/binary"
	"strings"
	"testing"
)

func TestMemoryBudget(t *testing.T) {
	t.Parallel()
	b := newMemoryBudget(100, "book.xlsx")
	steps := []struct {
		reserve, release int64
		ok               bool
		used             int64
	}{
		{reserve: 60, ok: true, used: 60},
		{reserve: 40, ok: true, used: 100},
		{release: 30, ok: true, used: 70},
		{reserve: 31, ok: false, used: 70},
		{reserve: 1, ok: false, used: 70}, // refusals are sticky
		{release: 500, ok: false, used: 0},
	}
	for i, s := range steps {
		var err error
		if s.reserve != 0 {
			err = b.reserve(s.reserve)
		}
		b.release(s.release)
		if (err == nil) != s.ok && s.reserve != 0 || b.used != s.used {
			t.Fatalf("step %d: err %v, used %d; want ok %v, used %d", i, err, b.used, s.ok, s.used)
		}
	}
	wantMemoryRefusal(t, b.failed())
	if e, _ := AsError(b.failed()); e.Field != FieldPath || !strings.HasPrefix(e.Message, "book.xlsx: ") {
		t.Errorf("refusal %+v does not name the workbook", e)
	}
	if b.peak != 100 {
		t.Errorf("peak %d, want 100", b.peak)
	}
	var unlimited *memoryBudget
	if unlimited.reserve(1<<62) != nil || unlimited.failed() != nil {
		t.Error("a nil budget must account nothing")
	}
}

func TestGrowSliceReservesBeforeAllocating(t *testing.T) {
	t.Parallel()
	b := newMemoryBudget(1000, "b")
	c := charge{mem: b}
	var s []int64
	for range 40 {
		grown, err := growSlice(&c, s, 1, 8)
		if err != nil {
			t.Fatal(err)
		}
		s = append(grown, 1)
		if c.total != int64(cap(s))*8 || b.used != c.total {
			t.Fatalf("cap %d: charge %d, budget %d", cap(s), c.total, b.used)
		}
	}
	// Growing past 1000 bytes needs old and new arrays at once: refused,
	// and the slice is left as it was.
	before := cap(s)
	for len(s) < cap(s) {
		s = append(s, 1)
	}
	if _, err := growSlice(&c, s, 100, 8); err == nil || cap(s) != before {
		t.Fatalf("growth past the budget: err %v, cap %d", err, cap(s))
	}
	c.releaseAll()
	if b.used != 0 {
		t.Errorf("used %d after releasing everything", b.used)
	}
}

// FuzzMemoryBudget runs arbitrary reserve and release sequences, as the
// structures of a read do: the budget never goes past its limit or below
// zero, and once it refuses it refuses everything.
func FuzzMemoryBudget(f *testing.F) {
	f.Add(uint32(1000), []byte{1, 0, 0, 0, 100, 0, 0, 0, 0, 0, 0, 0})
	f.Add(uint32(0), []byte{1, 1, 0, 0, 0})
	f.Add(uint32(1<<20), []byte{0, 255, 255, 255, 255, 1, 255, 255, 255, 127})
	f.Fuzz(func(t *testing.T, limit uint32, ops []byte) {
		b := newMemoryBudget(int64(limit), "f")
		c := charge{mem: b}
		for len(ops) >= 5 {
			op, n := ops[0], int64(int32(binary.LittleEndian.Uint32(ops[1:5])))
			ops = ops[5:]
			refused := b.failed() != nil
			switch op % 3 {
			case 0:
				err := b.reserve(n)
				if refused && err == nil {
					t.Fatal("a budget that refused accepted a reservation")
				}
			case 1:
				b.release(n)
			case 2:
				c.add(n)
			}
			if b.used < 0 || b.used > b.limit || b.peak > b.limit {
				t.Fatalf("used %d, peak %d, limit %d", b.used, b.peak, b.limit)
			}
		}
	})
}

// FuzzSharedStringsBudget reads arbitrary shared string parts under a
// small budget: the table never occupies more than it reserved, and the
// budget never passes its limit.
func FuzzSharedStringsBudget(f *testing.F) {
	f.Add(`<sst><si><t>a</t></si><si><r><t>b</t></r></si></sst>`, uint16(256))
	f.Add(`<sst>`+strings.Repeat(`<si><t>x</t></si>`, 5000)+`</sst>`, uint16(200))
	f.Add(`<sst><si><t>`+strings.Repeat("long &amp; _x0041_ ", 5000)+`</t></si></sst>`, uint16(300))
	f.Add(`<si/><si/><si><t/></si>`, uint16(1))
	f.Fuzz(func(t *testing.T, doc string, limitKiB uint16) {
		b := newMemoryBudget(int64(limitKiB)<<10, "f")
		table, err := readSharedStrings(context.Background(), strings.NewReader(doc), b)
		if b.used > b.limit || b.peak > b.limit {
			t.Fatalf("used %d, peak %d over limit %d", b.used, b.peak, b.limit)
		}
		if err != nil {
			return
		}
		if fp := table.footprint(); fp > table.mem.total {
			t.Fatalf("table occupies %d bytes but reserved %d", fp, table.mem.total)
		}
		for i := range table.len() {
			text, _, ok := table.get(i)
			if !ok || len([]rune(string(text))) > maxTextRunes+1 {
				t.Fatalf("string %d: ok %v, %d characters", i, ok, len([]rune(string(text))))
			}
		}
	})
}
