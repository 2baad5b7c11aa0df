// SPDX-License-Identifier: Apache-2.0

package workbook

import (
	"fmt"
	"strings"
	"testing"
)

func TestCutText(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("é", maxTextRunes)
	tests := []struct {
		name, in, want string
		cut            bool
	}{
		{"empty", "", "", false},
		{"short", "Amount", "Amount", false},
		{"exactly the limit", long, long, false},
		{"one character more", long + "x", long + textCutMarker, true},
		{"multi-byte at the cut", strings.Repeat("a", maxTextRunes-1) + "日本", strings.Repeat("a", maxTextRunes-1) + "日" + textCutMarker, true},
		{"invalid bytes count one each", strings.Repeat("\xff", maxTextRunes+3), strings.Repeat("\xff", maxTextRunes) + textCutMarker, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, tail := cutBytes([]byte(tt.in))
			if got != tt.want || (tail != 0) != tt.cut {
				t.Errorf("cutBytes = %q, tail %x; want %q, cut %v", got, tail, tt.want, tt.cut)
			}
			if s, cut := cutString(tt.in); s != tt.want || cut != tt.cut {
				t.Errorf("cutString = %q, %v", s, cut)
			}
		})
	}
	a, tailA := cutBytes([]byte(long + "tail one"))
	b, tailB := cutBytes([]byte(long + "tail two"))
	if a != b || tailA == tailB {
		t.Errorf("texts differing after the cut: shown %q/%q, tails %x/%x; want equal shown, distinct tails", a, b, tailA, tailB)
	}
}

// FuzzPieceTextMatchesCut feeds a text in arbitrary pieces: the result is
// the one cutBytes gives for the whole text.
func FuzzPieceTextMatchesCut(f *testing.F) {
	f.Add(strings.Repeat("ab", 700), uint8(7))
	f.Add("short", uint8(1))
	f.Add(strings.Repeat("日本語", 400), uint8(250))
	f.Fuzz(func(t *testing.T, text string, step uint8) {
		var p pieceText
		for rest := []byte(text); len(rest) > 0; {
			n := min(len(rest), int(step)+1)
			p.write(rest[:n])
			rest = rest[n:]
		}
		shown, tail := p.shown()
		wantShown, wantTail := cutBytes([]byte(text))
		if string(shown) != wantShown || tail != wantTail {
			t.Fatalf("pieces give %q/%x, whole gives %q/%x", shown, tail, wantShown, wantTail)
		}
	})
}

// TestProfileCutsLongNames gives a sheet, a table and a defined name (and
// its formula) more than 256 characters: each is cut and counted in one
// workbook warning.
func TestProfileCutsLongNames(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("n", 300)
	cut := strings.Repeat("n", maxTextRunes) + textCutMarker
	data := packageWith(t, map[string]string{
		"xl/workbook.xml": `<workbook xmlns:r="r"><sheets><sheet name="` + long + `" sheetId="1" r:id="rId1"/></sheets>` +
			`<definedNames><definedName name="` + long + `">` + long + `</definedName></definedNames></workbook>`,
		"xl/worksheets/sheet1.xml": `<worksheet><sheetData><row r="1"><c r="A1"><v>1</v></c><c r="B1"><v>2</v></c></row></sheetData>` +
			`<tableParts><tablePart r:id="rId9"/></tableParts></worksheet>`,
		"xl/worksheets/_rels/sheet1.xml.rels": relsOpen +
			`<Relationship Id="rId9" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/table" Target="../tables/table1.xml"/></Relationships>`,
		"xl/tables/table1.xml": `<table displayName="` + long + `" ref="A1:B1"/>`,
	})
	wb := mustProfile(t, newProfiler(t, Config{}), writeBomb(t, "names.xlsx", data), "")
	s := wb.Sheets[0]
	got := []string{s.Name, s.Tables[0].Name, s.Tables[0].Range, wb.NamedRanges[0].Name, wb.NamedRanges[0].RefersTo}
	want := []string{cut, cut, cut + "!A1:B1", cut, cut}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("text %d = %.30q… (%d bytes), want the cut name", i, got[i], len(got[i]))
		}
	}
	w := "4 sheet, table or defined names or formulas hold more than 256 characters; the profile shows their first 256 followed by …"
	if !hasWarning(wb, w) {
		t.Errorf("warnings %q lack %q", wb.Warnings, w)
	}
}

// TestProfileCountsLongTextsApart checks that texts alike in their first
// 256 characters but not after stay distinct values, while the same long
// text twice is one value.
func TestProfileCountsLongTextsApart(t *testing.T) {
	t.Parallel()
	head := strings.Repeat("x", 300)
	b := newBook(t)
	b.set("Sheet1", "A1", "note", "n")
	for i, v := range []string{head + "1", head + "2", head + "1", "short"} {
		b.set("Sheet1", fmt.Sprintf("A%d", i+2), v, i)
	}
	wb := mustProfile(t, newProfiler(t, Config{}), b.save("notes.xlsx"), "")
	note := columnNamed(t, wb.Sheets[0], "note")
	shown := strings.Repeat("x", maxTextRunes) + textCutMarker
	if note.Distinct != 3 || len(note.Values) != 3 || note.Values[0] != shown || note.Values[2] != "short" {
		t.Errorf("distinct %d, values %.40q", note.Distinct, note.Values)
	}
}
