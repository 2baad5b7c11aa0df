package workbook

import (
	"cmp"
	"slices"

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
	groupError
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
	case k == valueError:
		return groupError
	}
	return groupString
}

// groupPreference breaks ties between equally common kinds: typed data
// first, text last. Error cells never give a column its type.
var groupPreference = []kindGroup{groupNumber, groupTemporal, groupBool, groupString}

// distinctKey identifies a typed value: the number 7 and the text "7"
// differ because their kinds do.
type distinctKey struct {
	group kindGroup
	text  string
	num   float64
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

// columnStats accumulates the profile of one column, cell by cell.
type columnStats struct {
	filled      int
	counts      [groupCount]int
	nonIntegral bool // a number that is not a whole number within 2^53
	timePart    bool // a temporal value showing a time of day
	distinct    map[distinctKey]*distinctEntry
	firstByKind [groupCount][]cellNote // the first few cells of each group
	min, max    [groupCount]extreme
}

func newColumnStats() *columnStats {
	return &columnStats{distinct: make(map[distinctKey]*distinctEntry)}
}

// add records one filled cell.
func (s *columnStats) add(v cellValue, col, row int) {
	g := groupOf(v.kind)
	s.filled++
	s.counts[g]++
	switch {
	case g == groupNumber && !v.integral():
		s.nonIntegral = true
	case v.kind == valueDateTime || v.kind == valueTime:
		s.timePart = true
	}
	s.addDistinct(v, g)
	if len(s.firstByKind[g]) < maxOddCells {
		s.firstByKind[g] = append(s.firstByKind[g], cellNote{row: row, cell: cellName(col, row), text: v.display()})
	}
	if g == groupNumber || g == groupTemporal {
		s.min[g].offer(v, func(a, b float64) bool { return a < b })
		s.max[g].offer(v, func(a, b float64) bool { return a > b })
	}
}

func (s *columnStats) addDistinct(v cellValue, g kindGroup) {
	key := distinctKey{group: g}
	switch g {
	case groupNumber:
		key.num = v.num
	case groupBool:
		key.text = boolText(v.b)
	default:
		key.text = v.text
	}
	if entry, ok := s.distinct[key]; ok {
		entry.count++
		return
	}
	text := key.text
	if g == groupNumber {
		text = v.display()
	}
	s.distinct[key] = &distinctEntry{count: 1, order: len(s.distinct), text: text}
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
		Filled: s.filled, Blank: profiledRows - s.filled, Distinct: len(s.distinct),
	}
	if (group == groupString || group == groupBool) && len(s.distinct) > 0 && len(s.distinct) <= maxListedValues {
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

// listedValues returns the distinct values, most frequent first, ties in
// the order they were first seen.
func (s *columnStats) listedValues() []string {
	entries := make([]*distinctEntry, 0, len(s.distinct))
	for _, e := range s.distinct {
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
