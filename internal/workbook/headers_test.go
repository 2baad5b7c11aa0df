// SPDX-License-Identifier: Apache-2.0

package workbook

import (
	"reflect"
	"strconv"
	"testing"
)

// TestDuplicateHeadersAreNamedInLinearWork names rows of repeated headers
// and counts the allocations: a few per header, whatever the row's width.
// Issue 40, row 2: trying _2, _3... afresh for each of 16,384 equal
// headers (POI's 53105.xlsx) took 11-13 s of CPU for one sheet. It
// counts allocations, so it runs alone.
func TestDuplicateHeadersAreNamedInLinearWork(t *testing.T) {
	same := func(n int) []string {
		texts := make([]string, n)
		for i := range texts {
			texts[i] = "Amount"
		}
		return texts
	}
	// Names already taken by earlier headers: Amount_2 ... Amount_n, then
	// n repeats of Amount, the costliest order for a counter per name.
	taken := func(n int) []string {
		texts := make([]string, 0, 2*n)
		for i := 2; i <= n; i++ {
			texts = append(texts, "Amount_"+strconv.Itoa(i))
		}
		return append(texts, same(n)...)
	}
	tests := []struct {
		name  string
		texts []string
		last  string
	}{
		{"1k equal", same(1 << 10), "Amount_1024"},
		{"16k equal", same(1 << 14), "Amount_16384"},
		{"16k after their renames", taken(1 << 14), "Amount_32767"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var names []string
			allocs := testing.AllocsPerRun(1, func() {
				var warn warnings
				names = nameHeaders("S", 1, 1, tt.texts, &warn)
			})
			if perHeader := allocs / float64(len(tt.texts)); perHeader > 8 {
				t.Errorf("%.0f allocations for %d headers (%.1f each), want at most 8 each", allocs, len(tt.texts), perHeader)
			}
			seen := make(map[string]bool, len(names))
			for _, n := range names {
				if seen[n] {
					t.Fatalf("name %q given twice", n)
				}
				seen[n] = true
			}
			if got := names[len(names)-1]; got != tt.last {
				t.Errorf("last header named %q, want %q", got, tt.last)
			}
		})
	}
}

// TestHeaderLineBreaksBecomeOneSpace reads headers with line breaks
// written the ways writers write them: each break, with the spaces around
// it, becomes one space. Issue 40, minor: a CRLF inside a header became
// two spaces (Excel writes it as _x000D_ and a literal CRLF, which read as
// CR CR LF).
func TestHeaderLineBreaksBecomeOneSpace(t *testing.T) {
	t.Parallel()
	headers := []any{
		"Line&#13;&#10;Break", "Excel_x000D_\r\nWrites", "Two_x000D_&#10;Lines", "Spaced \r\n Out",
		"Blank&#13;&#10;&#13;&#10;Line", "Mac\rBreak", "Trailing&#13;&#10;",
	}
	path := sheetsPackage([2]string{"S", inlineRows(headers, []any{1, 2, 3, 4, 5, 6, 7})}).write(t, "breaks.xlsx")
	wb := mustProfile(t, newProfiler(t, Config{}), path, "")
	want := []string{"Line Break", "Excel Writes", "Two Lines", "Spaced Out", "Blank Line", "Mac Break", "Trailing"}
	if got := wb.Sheets[0].Headers; !reflect.DeepEqual(got, want) {
		t.Errorf("headers = %q, want %q", got, want)
	}
}
