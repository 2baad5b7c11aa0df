// SPDX-License-Identifier: Apache-2.0

package readtool

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// levenshtein is the plain edit distance between two strings, over runes:
// the reference the bounded comparison of suggest must agree with.
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

// within is what the bounded comparison must answer: the distance when
// it is at most a third of the longer name (at least 1).
func referenceWithin(want, name string) (int, bool) {
	limit := max3(len([]rune(want)), len([]rune(name))) / 3
	d := levenshtein(want, name)
	return d, d <= limit
}

func TestDistancerAgreesWithLevenshtein(t *testing.T) {
	t.Parallel()
	names := []string{"", "a", "nightly", "nightlly", "nigthly", "failing-job", "failing-jobx", "scale-0017",
		"job", "jbo", "étape-nuit", "etape-nuit", "ünïcode-name", "abcdefghijkl", "lkjihgfedcba", "aaaa", "aaab", "baaa"}
	for _, want := range names {
		d := newDistancer(want)
		for _, name := range names {
			dist, ok := d.within(name)
			refDist, refOK := referenceWithin(want, name)
			if ok != refOK || (ok && dist != refDist) {
				t.Errorf("within(%q, %q) = %d, %v; levenshtein says %d, %v", want, name, dist, ok, refDist, refOK)
			}
		}
	}
}

func FuzzDistancer(f *testing.F) {
	for _, s := range [][2]string{{"nightly", "nightlly"}, {"failing-jobx", "scale-0017"}, {"étape", "etape"}, {"", "abc"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, want, name string) {
		if len(want) > 64 || len(name) > 64 { // suggest never sees longer input (maxSuggestInput)
			return
		}
		dist, ok := newDistancer(want).within(name)
		refDist, refOK := referenceWithin(want, name)
		if ok != refOK || (ok && dist != refDist) {
			t.Fatalf("within(%q, %q) = %d, %v; levenshtein says %d, %v", want, name, dist, ok, refDist, refOK)
		}
	})
}

func TestSuggestAmongManyNames(t *testing.T) {
	t.Parallel()
	names := scaleNames(2000)
	names = append(names, "failing_job", "failing.jobs", "nightly")
	tests := []struct {
		want string
		got  []string
	}{
		{"failing_jobx", []string{"failing_job", "failing.jobs"}},
		{"scale_01999", []string{"scale_0199", "scale_0999", "scale_1999"}},
		{"nightlly", []string{"nightly"}},
		{"zzzzzzzzzzzz", []string{}},
	}
	for _, tt := range tests {
		got := suggest(tt.want, names, maxSuggestions)
		if !slices.Equal(got, tt.got) {
			t.Errorf("suggest(%q) = %q, want %q", tt.want, got, tt.got)
		}
		if ref := referenceSuggest(tt.want, names, maxSuggestions); !slices.Equal(got, ref) {
			t.Errorf("suggest(%q) = %q, the plain comparison picks %q", tt.want, got, ref)
		}
	}
}

// referenceSuggest is suggest with the plain edit distance for every name.
func referenceSuggest(want string, names []string, max int) []string {
	type scored struct {
		name  string
		score int
	}
	lw := normalizeName(want)
	var hits []scored
	for _, n := range names {
		ln := normalizeName(n)
		switch d, ok := referenceWithin(lw, ln); {
		case n == want:
		case strings.Contains(ln, lw) || strings.Contains(lw, ln):
			hits = append(hits, scored{n, 0})
		case ok && d > 0:
			hits = append(hits, scored{n, d})
		}
	}
	slices.SortFunc(hits, func(a, b scored) int {
		if a.score != b.score {
			return a.score - b.score
		}
		return strings.Compare(a.name, b.name)
	})
	out := []string{}
	for i := 0; i < len(hits) && i < max; i++ {
		out = append(out, hits[i].name)
	}
	return out
}

// scaleNames are DAG names like those of a large Dagu.
func scaleNames(n int) []string {
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("scale_%04d", i)
	}
	return names
}

func BenchmarkSuggest2000Names(b *testing.B) {
	names := append(scaleNames(2000), "failing_job")
	for b.Loop() {
		if got := suggest("failing_jobx", names, maxSuggestions); len(got) != 1 || !strings.HasPrefix(got[0], "failing") {
			b.Fatal(got)
		}
	}
}

// BenchmarkSuggestPlain2000Names is the plain comparison of every name
// (the algorithm before the bounds), to compare with.
func BenchmarkSuggestPlain2000Names(b *testing.B) {
	names := append(scaleNames(2000), "failing_job")
	for b.Loop() {
		if got := referenceSuggest("failing_jobx", names, maxSuggestions); len(got) != 1 {
			b.Fatal(got)
		}
	}
}
