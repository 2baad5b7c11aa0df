// SPDX-License-Identifier: Apache-2.0

package workbook

import "fmt"

// maxWarnings is the number of warnings a profile lists in full.
const maxWarnings = 100

// warnings collects messages up to maxWarnings and counts the rest.
type warnings struct {
	list  []string
	extra int
}

func (w *warnings) add(msg string) {
	if len(w.list) < maxWarnings {
		w.list = append(w.list, msg)
		return
	}
	w.extra++
}

func (w *warnings) addf(format string, args ...any) {
	if len(w.list) >= maxWarnings {
		w.extra++
		return
	}
	w.add(fmt.Sprintf(format, args...))
}

// merge appends another collection, keeping its order and its count.
func (w *warnings) merge(other *warnings) {
	for _, msg := range other.list {
		w.add(msg)
	}
	w.extra += other.extra
}

// result returns the listed warnings, followed by "N more warnings" when
// some were left out. It never returns nil.
func (w *warnings) result() []string {
	out := append(make([]string, 0, len(w.list)+1), w.list...)
	if w.extra > 0 {
		out = append(out, fmt.Sprintf("%d more warnings", w.extra))
	}
	return out
}
