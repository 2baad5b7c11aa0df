// SPDX-License-Identifier: Apache-2.0

package workbook

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"
)

// The three hostile workbooks of issue 11, each read under the default
// configuration: bounded answer, bounded heap, or a quick refusal.

// TestLongSharedStringsAreCut reads 250 shared strings of 1 MiB (250 MiB
// inflated; the gateway used to peak at 3 GiB and answer 364 MiB). The
// read succeeds with every text cut, a small answer and a small heap.
func TestLongSharedStringsAreCut(t *testing.T) {
	path := writeBomb(t, "long.xlsx", longStringsBomb(t, 250, 1<<20/raceShrink))
	p := newProfiler(t, Config{})
	var out readOutcome
	growth := heapGrowth(t, func() { out = readWithBudget(t, p, path) })
	if out.err != nil {
		t.Fatalf("read failed: %v", out.err)
	}
	wb := out.wb
	t.Logf("answer %d bytes, heap growth %.1f MiB, budget peak %.1f MiB", out.answer, mib(growth), mib(out.peak))
	if out.answer > 256<<10 {
		t.Errorf("answer is %d bytes, want under 256 KiB", out.answer)
	}
	if growth > uint64(DefaultMaxMemory)/2 {
		t.Errorf("heap grew by %d MiB, want under half the %d MiB budget", growth>>20, DefaultMaxMemory>>20)
	}
	if n := longestText(wb); n != maxTextRunes+1 {
		t.Errorf("longest text has %d characters, want %d (cut, with its marker)", n, maxTextRunes+1)
	}
	s := wb.Sheets[0]
	if c := s.Columns[0]; c.Distinct != 20 || len(c.Values) != 20 || !strings.HasSuffix(c.Values[0], textCutMarker) {
		t.Errorf("column 0: distinct %d, %d values, first %.20q…", c.Distinct, len(c.Values), c.Values[0])
	}
	want := "S: 250 cells hold more than 256 characters; the profile shows their first 256 followed by …"
	if !hasWarning(wb, want) {
		t.Errorf("warnings %q lack %q", wb.Warnings, want)
	}
}

// TestConcurrentReadsShareTheBound reads the same file four times at once,
// as one JSON-RPC batch of four calls does (the gateway used to peak at
// 9 GiB): two run, two wait, and the heap stays within the budget.
func TestConcurrentReadsShareTheBound(t *testing.T) {
	path := writeBomb(t, "long.xlsx", longStringsBomb(t, 250, 1<<20/raceShrink))
	p := newProfiler(t, Config{Concurrency: 2})
	errs := make([]error, 4)
	growth := heapGrowth(t, func() {
		var wg sync.WaitGroup
		for i := range errs {
			wg.Go(func() { _, errs[i] = p.Profile(context.Background(), path, "") })
		}
		wg.Wait()
	})
	if err := errors.Join(errs...); err != nil {
		t.Fatalf("reads failed: %v", err)
	}
	t.Logf("heap growth %.1f MiB", mib(growth))
	if growth > uint64(DefaultMaxMemory) {
		t.Errorf("heap grew by %d MiB for four reads, want under one %d MiB budget", growth>>20, DefaultMaxMemory>>20)
	}
}

// TestManyTinySharedStringsAreRefused reads 14 million one-character
// shared strings (a 583 KB file; the gateway used to spend 9 s and 425 MB
// on it): the per-string cost exhausts the budget after a few million and
// the read is refused without growing the heap past the budget.
func TestManyTinySharedStringsAreRefused(t *testing.T) {
	path := writeBomb(t, "many.xlsx", manyStringsBomb(t, 14_000_000))
	budget := DefaultMaxMemory / raceShrink
	p := newProfiler(t, Config{MaxMemory: budget})
	var out readOutcome
	growth := heapGrowth(t, func() { out = readWithBudget(t, p, path) })
	t.Logf("heap growth %.1f MiB, budget peak %.1f MiB", mib(growth), mib(out.peak))
	wantMemoryRefusal(t, out.err)
	if want := "(limit " + formatBytes(budget) + ", --workbook-max-memory)"; !strings.Contains(out.err.Error(), want) {
		t.Errorf("message %q does not name the limit", out.err)
	}
	if growth > uint64(budget)*3/2 {
		t.Errorf("heap grew by %.1f MiB, want under 1.5 times the %d MiB budget", mib(growth), budget>>20)
	}
}

// TestReadsWaitForASlot stands for N reads in progress by holding all N
// slots (a real read finishes too fast to hold one), then checks that
// read N+1 is refused as unavailable when its context ends first, and
// otherwise waits for a slot and runs once one is free.
func TestReadsWaitForASlot(t *testing.T) {
	t.Parallel()
	path := smallBook(t, "small.xlsx")
	for _, slots := range []int{1, 2} {
		t.Run(strings.Repeat("slot", slots), func(t *testing.T) {
			p := newProfiler(t, Config{Concurrency: slots})
			if !p.slots.TryAcquire(int64(slots)) {
				t.Fatal("slots are not free")
			}
			// Long enough that the read reaches the wait before its stop
			// time (a tenth of this before the deadline) on a loaded
			// machine: at 20 ms it was refused before it began.
			ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
			defer cancel()
			_, err := p.Profile(ctx, path, "")
			wantUnavailable(t, err, "too many workbook reads in progress")
			if e, _ := AsError(err); e.Field != "" || !errors.Is(err, context.DeadlineExceeded) || e.RetryAfter != busyRetryAfter {
				t.Errorf("field %q, cause %v, retry after %v: want no field, the deadline and %v", e.Field, e.Cause, e.RetryAfter, busyRetryAfter)
			}

			done := make(chan error, 1)
			go func() {
				_, err := p.Profile(context.Background(), path, "")
				done <- err
			}()
			select {
			case err := <-done:
				t.Fatalf("read ran while every slot was taken (err %v)", err)
			case <-time.After(50 * time.Millisecond):
			}
			p.slots.Release(1)
			if err := <-done; err != nil {
				t.Fatalf("read after a slot freed: %v", err)
			}
			p.slots.Release(int64(slots - 1))
		})
	}
}

// TestCancelledContextIsNotBusy keeps the contract of Profile: a context
// already ended is reported as such, not as a busy gateway.
func TestCancelledContextIsNotBusy(t *testing.T) {
	t.Parallel()
	p := newProfiler(t, Config{Concurrency: 1})
	p.slots.TryAcquire(1)
	defer p.slots.Release(1)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := p.Profile(ctx, smallBook(t, "small.xlsx"), ""); err != context.Canceled {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}
