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
// the longer name, closest first, ties alphabetical.
func suggest(want string, names []string, max int) []string {
	type scored struct {
		name  string
		score int
	}
	lw := normalizeName(want)
	var hits []scored
	for _, n := range names {
		ln := normalizeName(n)
		if n == want {
			continue
		}
		if strings.Contains(ln, lw) || strings.Contains(lw, ln) {
			hits = append(hits, scored{n, 0})
			continue
		}
		wl, nl := utf8.RuneCountInString(lw), utf8.RuneCountInString(ln)
		limit := max3(wl, nl) / 3
		// The distance is at least the length difference: skip the
		// quadratic comparison when that alone is too far.
		if abs(wl-nl) > limit {
			continue
		}
		if d := levenshtein(lw, ln); d <= limit && d > 0 {
			hits = append(hits, scored{n, d})
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

// levenshtein is the edit distance between two strings, over runes.
func levenshtein(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = strconv.Quote(n)
	}
	return strings.Join(q, ", ")
}
