// SPDX-License-Identifier: Apache-2.0

package readtool

import (
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

const maxSuggestions = 3

// suggest picks up to max names close to want, ignoring case and the
// difference between _, . and -: names containing it (or contained in it) first, then names within an edit distance of a third of
// the longer name, closest first, ties alphabetical. Its cost grows with
// the number of names (thousands on a large Dagu), so each comparison
// first tries cheap lower bounds of the distance and reuses its buffers.
func suggest(want string, names []string, max int) []string {
	type scored struct {
		name  string
		score int
	}
	lw := normalizeName(want)
	d := newDistancer(lw)
	var hits []scored
	for _, n := range names {
		if d.ruledOut(n) {
			continue
		}
		ln := normalizeName(n)
		if n == want {
			continue
		}
		if strings.Contains(ln, lw) || strings.Contains(lw, ln) {
			hits = append(hits, scored{n, 0})
			continue
		}
		if dist, ok := d.within(ln); ok && dist > 0 {
			hits = append(hits, scored{n, dist})
		}
	}
	sort.Slice(hits, func(i, j int) bool {
		if hits[i].score != hits[j].score {
			return hits[i].score < hits[j].score
		}
		return hits[i].name < hits[j].name
	})
	out := make([]string, 0, max)
	for i := 0; i < len(hits) && i < max; i++ {
		out = append(out, hits[i].name)
	}
	return out
}

// distancer measures the edit distance from one wanted name to many
// others, keeping its buffers between comparisons.
type distancer struct {
	want       []rune
	wantCounts [asciiSize]int32 // wanted name's byte counts, for the bag bound (ASCII only)
	wantASCII  bool
	other      []rune
	prev, cur  []int
}

const asciiSize = 128

func newDistancer(want string) *distancer {
	d := &distancer{want: []rune(want), wantASCII: isASCII(want)}
	if d.wantASCII {
		for i := 0; i < len(want); i++ {
			d.wantCounts[want[i]]++
		}
	}
	return d
}

// within returns the distance to name when it is at most a third of the
// longer name (at least 1), as levenshtein would compute it; false when
// it is larger. The length difference and, for ASCII names, the bag
// distance (characters one name has and the other lacks) are lower bounds
// of the edit distance, so most names are ruled out without the
// quadratic comparison, and that comparison stops as soon as a whole row
// is over the limit.
func (d *distancer) within(name string) (int, bool) {
	wl, nl := len(d.want), utf8.RuneCountInString(name)
	limit := max3(wl, nl) / 3
	if abs(wl-nl) > limit {
		return 0, false
	}
	if d.wantASCII && isASCII(name) && d.bagDistance(name) > limit {
		return 0, false
	}
	d.other = append(d.other[:0], []rune(name)...)
	return d.bounded(limit)
}

// ruledOut reports, without normalizing (allocating) the name, that an
// ASCII name can be neither contained in the wanted one, nor contain it,
// nor be close enough: its normalized characters are not a sub- or
// superset of the wanted name's, and the length difference or the bag
// distance is over the limit.
func (d *distancer) ruledOut(name string) bool {
	if !d.wantASCII || !isASCII(name) {
		return false
	}
	extraWant, extraName := d.extras(name, normalizedByte)
	if extraWant == 0 || extraName == 0 {
		return false
	}
	wl, nl := len(d.want), len(name)
	limit := max3(wl, nl) / 3
	return abs(wl-nl) > limit || max(extraWant, extraName) > limit
}

// normalizedByte is normalizeName for one ASCII byte.
func normalizedByte(c byte) byte {
	switch {
	case c >= 'A' && c <= 'Z':
		return c + ('a' - 'A')
	case c == '_' || c == '.' || c == ' ':
		return '-'
	}
	return c
}

// extras counts the characters (each byte of the ASCII name mapped by
// norm) the wanted name has beyond the name, and those the name has beyond
// the wanted name.
func (d *distancer) extras(name string, norm func(byte) byte) (extraWant, extraName int) {
	left := d.wantCounts
	for i := 0; i < len(name); i++ {
		c := norm(name[i])
		if left[c] > 0 {
			left[c]--
		} else {
			extraName++
		}
	}
	matched := len(name) - extraName
	return len(d.want) - matched, extraName
}

// bagDistance is the larger of the counts of characters one ASCII name has
// beyond the other's.
func (d *distancer) bagDistance(name string) int {
	extraWant, extraName := d.extras(name, func(c byte) byte { return c })
	return max(extraWant, extraName)
}

// bounded is the edit distance between want and other when it is at most
// limit; it gives up (false) once every entry of a row exceeds limit,
// since the distance can only grow from there.
func (d *distancer) bounded(limit int) (int, bool) {
	a, b := d.want, d.other
	if cap(d.prev) < len(b)+1 {
		d.prev, d.cur = make([]int, len(b)+1), make([]int, len(b)+1)
	}
	prev, cur := d.prev[:len(b)+1], d.cur[:len(b)+1]
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			rowMin = min(rowMin, cur[j])
		}
		if rowMin > limit {
			return 0, false
		}
		prev, cur = cur, prev
	}
	dist := prev[len(b)]
	return dist, dist <= limit
}

// isASCII reports whether s holds only ASCII bytes.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// separators treats the separators people mix up in DAG names as equal.
var separators = strings.NewReplacer("_", "-", ".", "-", " ", "-")

func normalizeName(s string) string { return separators.Replace(strings.ToLower(s)) }

func max3(a, b int) int { return max(a, b, 3) }

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = strconv.Quote(n)
	}
	return strings.Join(q, ", ")
}
