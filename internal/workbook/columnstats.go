// SPDX-License-Identifier: Apache-2.0

package workbook

import (
	"cmp"
	"hash/maphash"
	"math"
	"slices"
	"unsafe"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
)

const (
	maxListedValues = 20 // distinct values listed for string and boolean columns
	maxOddCells     = 5  // odd cells listed per column
)

// kindGroup groups value kinds the way column typing counts them.
type kindGroup uint8

const (
	groupString kindGroup = iota
	groupNumber
	groupBool
	groupTemporal
	groupCount
)

func groupOf(k valueKind) kindGroup {
	switch {
	case k == valueNumber:
		return groupNumber
	case k == valueBool:
		return groupBool
	case k.temporal():
		return groupTemporal
	}
	return groupString
}

// groupPreference breaks ties between equally common kinds: typed data
// first, text last. (Error cells are null: they never reach a column.)
var groupPreference = []kindGroup{groupNumber, groupTemporal, groupBool, groupString}

// What the statistics of one column reserve against the read's budget,
// beside the texts they keep (measured on Go's maps, growth included).
const (
	costColumn   = int64(unsafe.Sizeof(columnStats{})) + 64 // + its map entry
	costDistinct = 40                                       // one hash in the set of distinct values
	costListed   = 160                                      // one listed value: key, entry and map slot
	costNote     = 96                                       // one remembered cell
)

// distinctKey identifies a typed value: the number 7 and the text "7"
// differ because their kinds do; tail tells cut texts apart.
type distinctKey struct {
	group kindGroup
	text  string
	num   float64
	tail  uint64
}

func keyOf(v cellValue, g kindGroup) distinctKey {
	key := distinctKey{group: g, tail: v.tail}
	switch g {
	case groupNumber:
		key.num = v.num
		if key.num == 0 {
			key.num = 0 // -0 and 0 are one value
		}
	case groupBool:
		key.text = boolText(v.b)
	default:
		key.text = v.text
	}
	return key
}

// hash digests the key for the set of distinct values: numbers map one to
// one (the mixer is a bijection), texts through maphash.
func (k distinctKey) hash() uint64 {
	h := maphash.String(textSeed, k.text)
	h ^= mix64(math.Float64bits(k.num) ^ uint64(k.group)<<59)
	return h ^ mix64(k.tail^0x9e3779b97f4a7c15)*3
}

// mix64 is the splitmix64 finaliser.
func mix64(x uint64) uint64 {
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

type distinctEntry struct {
	count, order int
	text         string
}

type cellNote struct {
	row  int
	cell string
	text string
}

// extreme is the smallest or largest value seen of one group.
type extreme struct {
	set   bool
	value cellValue
}

func (e *extreme) offer(v cellValue, better func(a, b float64) bool) {
	if !e.set || better(v.num, e.value.num) {
		e.set, e.value = true, v
	}
}

// columnStats accumulates the profile of one column, cell by cell. Every
// entry it keeps is reserved first through mem, the sheet's charge.
//
// Distinct values are counted as a set of hashes, which costs a few bytes
// a value whatever its text; the values themselves are kept only while
// there are few enough to be listed.
type columnStats struct {
	mem         *charge
	filled      int
	counts      [groupCount]int
	nonIntegral bool // a number that is not a whole number within 2^53
	timePart    bool // a temporal value showing a time of day
	seen        map[uint64]struct{}
	listed      map[distinctKey]*distinctEntry // nil once there are too many
	listedCost  int64
	firstByKind [groupCount][]cellNote // the first few cells of each group
	min, max    [groupCount]extreme
}

// newColumnStats returns empty statistics; the caller has reserved
// costColumn.
func newColumnStats(mem *charge) *columnStats {
	return &columnStats{
		mem: mem, seen: make(map[uint64]struct{}), listed: make(map[distinctKey]*distinctEntry),
	}
}

// add records one filled cell.
func (s *columnStats) add(v cellValue, col, row int) error {
	g := groupOf(v.kind)
	s.filled++
	s.counts[g]++
	switch {
	case g == groupNumber && !v.integral():
		s.nonIntegral = true
	case v.kind == valueDateTime || v.kind == valueTime:
		s.timePart = true
	}
	if err := s.addDistinct(v, g); err != nil {
		return err
	}
	if len(s.firstByKind[g]) < maxOddCells {
		if err := s.addNote(g, v, col, row); err != nil {
			return err
		}
	}
	if g == groupNumber || g == groupTemporal {
		s.min[g].offer(v, func(a, b float64) bool { return a < b })
		s.max[g].offer(v, func(a, b float64) bool { return a > b })
	}
	return nil
}

func (s *columnStats) addNote(g kindGroup, v cellValue, col, row int) error {
	note := cellNote{row: row, cell: cellName(col, row), text: v.display()}
	if err := s.mem.add(costNote + int64(len(note.cell)+len(note.text))); err != nil {
		return err
	}
	s.firstByKind[g] = append(s.firstByKind[g], note)
	return nil
}

func (s *columnStats) addDistinct(v cellValue, g kindGroup) error {
	key := keyOf(v, g)
	h := key.hash()
	if _, ok := s.seen[h]; ok {
		if entry := s.listed[key]; entry != nil {
			entry.count++
		}
		return nil
	}
	if err := s.mem.add(costDistinct); err != nil {
		return err
	}
	s.seen[h] = struct{}{}
	return s.addListed(key, v, g)
}

// addListed keeps a new distinct value while the column could still list
// its values, and drops them all once it has too many.
func (s *columnStats) addListed(key distinctKey, v cellValue, g kindGroup) error {
	if s.listed == nil {
		return nil
	}
	if len(s.seen) > maxListedValues {
		s.listed = nil
		s.mem.drop(s.listedCost)
		s.listedCost = 0
		return nil
	}
	text := key.text
	if g == groupNumber {
		text = v.display()
	}
	cost := costListed + int64(len(text))
	if err := s.mem.add(cost); err != nil {
		return err
	}
	s.listedCost += cost
	s.listed[key] = &distinctEntry{count: 1, order: len(s.listed), text: text}
	return nil
}

func boolText(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

// columnGroup returns the group most filled cells have; a column without
// typed values is text.
func (s *columnStats) columnGroup() kindGroup {
	best, bestCount := groupString, 0
	for _, g := range groupPreference {
		if s.counts[g] > bestCount {
			best, bestCount = g, s.counts[g]
		}
	}
	return best
}

// columnType names the column's type from its group.
func (s *columnStats) columnType() string {
	switch s.columnGroup() {
	case groupNumber:
		if s.nonIntegral {
			return model.ColumnNumber
		}
		return model.ColumnInteger
	case groupTemporal:
		if s.timePart {
			return model.ColumnDateTime
		}
		return model.ColumnDate
	case groupBool:
		return model.ColumnBoolean
	}
	return model.ColumnString
}

// profile renders the statistics of a column read over profiledRows rows.
func (s *columnStats) profile(name string, profiledRows int) model.ColumnProfile {
	group, typ := s.columnGroup(), s.columnType()
	p := model.ColumnProfile{
		Name: name, Type: typ,
		Filled: s.filled, Blank: profiledRows - s.filled, Distinct: len(s.seen),
	}
	if (group == groupString || group == groupBool) && s.listed != nil && len(s.listed) > 0 {
		p.Values = s.listedValues()
	}
	if (group == groupNumber || group == groupTemporal) && s.min[group].set {
		p.Min = extremeJSON(s.min[group].value, typ)
		p.Max = extremeJSON(s.max[group].value, typ)
	}
	p.Odd = s.filled - s.counts[group]
	if p.Odd > 0 {
		p.OddCells = s.oddCells(group)
	}
	return p
}

// outputCost estimates, from above, the memory of the column's profile
// beside its fixed part: listed values, odd cells, min and max.
func (s *columnStats) outputCost() int64 {
	cost := int64(2 * costOutputValue * 2) // min and max, boxed
	for _, e := range s.listed {
		cost += costOutputValue + int64(len(e.text))
	}
	for _, notes := range s.firstByKind {
		for _, n := range notes {
			cost += costOutputNote + int64(len(n.cell)+len(n.text))
		}
	}
	return cost
}

// listedValues returns the distinct values, most frequent first, ties in
// the order they were first seen.
func (s *columnStats) listedValues() []string {
	entries := make([]*distinctEntry, 0, len(s.listed))
	for _, e := range s.listed {
		entries = append(entries, e)
	}
	slices.SortFunc(entries, func(a, b *distinctEntry) int {
		if c := cmp.Compare(b.count, a.count); c != 0 {
			return c
		}
		return cmp.Compare(a.order, b.order)
	})
	values := make([]string, len(entries))
	for i, e := range entries {
		values[i] = e.text
	}
	return values
}

// oddCells returns the first few cells, in row order, whose group is not
// the column's.
func (s *columnStats) oddCells(columnGroup kindGroup) []model.OddCell {
	var notes []cellNote
	for g := range groupCount {
		if g != columnGroup {
			notes = append(notes, s.firstByKind[g]...)
		}
	}
	slices.SortStableFunc(notes, func(a, b cellNote) int { return cmp.Compare(a.row, b.row) })
	notes = notes[:min(len(notes), maxOddCells)]
	cells := make([]model.OddCell, len(notes))
	for i, n := range notes {
		cells[i] = model.OddCell{Cell: n.cell, Text: n.text}
	}
	return cells
}

// extremeJSON renders a min or max: a JSON number for numeric columns, ISO
// text for temporal ones, widened to a date-time in a datetime column.
func extremeJSON(v cellValue, columnType string) any {
	if v.kind == valueDate && columnType == model.ColumnDateTime {
		return v.text + "T00:00:00"
	}
	return v.jsonValue()
}
