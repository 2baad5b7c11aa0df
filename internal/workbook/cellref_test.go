// SPDX-License-Identifier: Apache-2.0

package workbook

import "testing"

func TestParseCellRef(t *testing.T) {
	t.Parallel()
	tests := []struct {
		ref      string
		col, row int
		ok       bool
	}{
		{"A1", 1, 1, true},
		{"z9", 26, 9, true},
		{"AA10", 27, 10, true},
		{"$XFD$1048576", 16384, 1048576, true},
		{"XFE1", 0, 0, false},
		{"A1048577", 0, 0, false},
		{"A0", 0, 0, false},
		{"1", 0, 0, false},
		{"A", 0, 0, false},
		{"A1B", 0, 0, false},
		{"", 0, 0, false},
	}
	for _, tt := range tests {
		col, row, err := parseCellRef([]byte(tt.ref))
		if (err == nil) != tt.ok || col != tt.col || row != tt.row {
			t.Errorf("parseCellRef(%q) = %d, %d, %v", tt.ref, col, row, err)
		}
	}
}

func TestColumnName(t *testing.T) {
	t.Parallel()
	for col, want := range map[int]string{1: "A", 26: "Z", 27: "AA", 52: "AZ", 703: "AAA", 16384: "XFD"} {
		if got := columnName(col); got != want {
			t.Errorf("columnName(%d) = %q, want %q", col, got, want)
		}
	}
}

func TestBounds(t *testing.T) {
	t.Parallel()
	var b bounds
	if b.String() != "" {
		t.Errorf("empty bounds = %q", b.String())
	}
	b.add(5, 3)
	b.add(2, 4)
	b.add(9, 2)
	if got := b.String(); got != "B2:D9" {
		t.Errorf("bounds = %q, want B2:D9", got)
	}
}

// FuzzParseCellRef checks that every reference that parses renders back
// to the same cell.
func FuzzParseCellRef(f *testing.F) {
	for _, seed := range []string{"A1", "$B$2", "XFD1048576", "a0", "ZZZZ1", "A99999999999"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, ref string) {
		col, row, err := parseCellRef([]byte(ref))
		if err != nil {
			return
		}
		if col < 1 || col > maxSheetColumns || row < 1 || row > maxSheetRows {
			t.Fatalf("parseCellRef(%q) = %d, %d out of range", ref, col, row)
		}
		c2, r2, err := parseCellRef([]byte(cellName(col, row)))
		if err != nil || c2 != col || r2 != row {
			t.Errorf("round trip of %q: %d,%d -> %q -> %d,%d (%v)", ref, col, row, cellName(col, row), c2, r2, err)
		}
	})
}
