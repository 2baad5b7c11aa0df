// SPDX-License-Identifier: Apache-2.0

package workbook

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// checkpointCtx is a context whose end comes at its nth check (a call to
// Err), with err: so a test can end a read at every point where it looks
// at its context, in turn, without a clock.
type checkpointCtx struct {
	mu       sync.Mutex
	checks   int
	endAt    int // 0: never
	err      error
	done     chan struct{}
	deadline time.Time
}

func newCheckpointCtx(endAt int, err error) *checkpointCtx {
	return &checkpointCtx{endAt: endAt, err: err, done: make(chan struct{}), deadline: time.Now().Add(time.Hour)}
}

func (c *checkpointCtx) Deadline() (time.Time, bool) { return c.deadline, true }
func (c *checkpointCtx) Done() <-chan struct{}       { return c.done }
func (c *checkpointCtx) Value(any) any               { return nil }

func (c *checkpointCtx) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.checks++
	if c.endAt > 0 && c.checks == c.endAt {
		close(c.done)
	}
	if c.endAt > 0 && c.checks >= c.endAt {
		return c.err
	}
	return nil
}

func (c *checkpointCtx) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.checks
}

// threeSheetBook has three sheets of 300 rows: more rows than the scan
// reads between two looks at its clock.
func threeSheetBook(t *testing.T) string {
	var sheets [][2]string
	for _, name := range []string{"One", "Two", "Three"} {
		rows := [][]any{{"id", "label", "amount", "note"}}
		for r := 1; r <= 300; r++ {
			rows = append(rows, []any{r, fmt.Sprintf("item %d", r%37), float64(r) / 8, strings.Repeat("x", r%50)})
		}
		sheets = append(sheets, [2]string{name, inlineRows(rows...)})
	}
	return sheetsPackage(sheets...).write(t, "three.xlsx")
}

// checkpoints counts the context checks of one whole read of path.
func checkpoints(t *testing.T, p *Profiler, path string) int {
	t.Helper()
	probe := newCheckpointCtx(0, nil)
	if _, err := p.Profile(probe, path, ""); err != nil {
		t.Fatal(err)
	}
	return probe.count()
}

var stoppedInSheet = regexp.MustCompile(`it stopped in sheet "(\w+)" \(sheet \d of 3\) at row (\d+)\.`)

// TestProfileRefusesWhenTheDeadlinePasses ends the read's deadline at
// each point where the read looks at its context, in turn: every time the
// answer is a refusal that says where the read stopped and what to
// narrow, and the points reach into every sheet, rows before its end.
// Issue 40, row 2: a 5-sheet workbook answered after 36 s despite
// --call-timeout 30s, and a timeout said "try again" for a file that will
// time out again.
func TestProfileRefusesWhenTheDeadlinePasses(t *testing.T) {
	t.Parallel()
	path := threeSheetBook(t)
	p := newProfiler(t, Config{})
	n := checkpoints(t, p, path)
	stoppedIn := map[string]bool{}
	for k := 1; k <= n; k++ {
		wb, err := p.Profile(newCheckpointCtx(k, context.DeadlineExceeded), path, "")
		e, ok := AsError(err)
		if !ok || wb != nil {
			t.Fatalf("deadline at check %d of %d: profile %v, err %v (%T), want a refusal", k, n, wb != nil, err, err)
		}
		const head = "three.xlsx: profiling did not finish within the call's time limit: it stopped "
		if e.Kind != KindUnavailable || !strings.HasPrefix(e.Message, head) ||
			!strings.HasSuffix(e.Message, "ask the operator to raise --call-timeout.") {
			t.Fatalf("deadline at check %d: %v %q", k, e.Kind, e.Message)
		}
		if m := stoppedInSheet.FindStringSubmatch(e.Message); m != nil {
			if row, _ := strconv.Atoi(m[2]); row < 301 {
				stoppedIn[m[1]] = true
			}
			if !strings.Contains(e.Message, "save that sheet, or the range you need from it, as a workbook of its own") {
				t.Errorf("deadline at check %d: %q does not say what to narrow", k, e.Message)
			}
		}
	}
	if len(stoppedIn) != 3 {
		t.Errorf("the read stopped before the last row of sheets %v over %d checks, want all three", stoppedIn, n)
	}
}

// TestProfileStopsWhenTheCallerGoesAway cancels the read at each point
// where it looks at its context, in turn: every time it ends with the
// context's error and gives its slot back.
func TestProfileStopsWhenTheCallerGoesAway(t *testing.T) {
	t.Parallel()
	path := threeSheetBook(t)
	p := newProfiler(t, Config{Concurrency: 1})
	n := checkpoints(t, p, path)
	for k := 1; k <= n; k++ {
		wb, err := p.Profile(newCheckpointCtx(k, context.Canceled), path, "")
		if wb != nil || !errors.Is(err, context.Canceled) {
			t.Fatalf("cancelled at check %d of %d: profile %v, err %v", k, n, wb != nil, err)
		}
		if !p.slots.TryAcquire(1) {
			t.Fatalf("cancelled at check %d: the slot is still taken", k)
		}
		p.slots.Release(1)
	}
}
