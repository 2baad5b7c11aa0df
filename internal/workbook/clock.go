// SPDX-License-Identifier: Apache-2.0

package workbook

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// A read stops a little before its call's deadline, so that its answer, a
// refusal naming what to narrow, still reaches the caller within the
// call's time limit: answerMargin, or a tenth of the time left when that
// is shorter.
const answerMargin = 500 * time.Millisecond

// errTimeUp is what a read's clock says once its stop time has passed. It
// is a deadline: errors.Is(errTimeUp, context.DeadlineExceeded) holds.
var errTimeUp = fmt.Errorf("the workbook read reached its stop time: %w", context.DeadlineExceeded)

// readClock tells a read when to stop: when its caller goes away (its
// context is cancelled) or when its stop time passes. Every part is read
// through it (partReader checks it before each read of inflated bytes),
// so no stretch of work between two checks grows with the input beyond
// one buffer of XML.
type readClock struct {
	ctx    context.Context
	stopAt time.Time // zero: no deadline
}

// newReadClock stops at ctx's deadline less the answer's margin.
func newReadClock(ctx context.Context) *readClock {
	c := &readClock{ctx: ctx}
	if deadline, ok := ctx.Deadline(); ok {
		margin := min(answerMargin, time.Until(deadline)/10)
		c.stopAt = deadline.Add(-max(margin, 0))
	}
	return c
}

// check returns the context's error, errTimeUp, or nil while the read may
// go on.
func (c *readClock) check() error {
	if err := c.ctx.Err(); err != nil {
		return err
	}
	if !c.stopAt.IsZero() && !time.Now().Before(c.stopAt) {
		return errTimeUp
	}
	return nil
}

// waitContext returns a context that ends at the stop time, for waits
// that take one (a free read slot).
func (c *readClock) waitContext() (context.Context, context.CancelFunc) {
	if c.stopAt.IsZero() {
		return context.WithCancel(c.ctx)
	}
	return context.WithDeadline(c.ctx, c.stopAt)
}

// await waits for done to be closed, or for the read to have to stop,
// whichever comes first; it returns check's error in the second case.
func (c *readClock) await(done <-chan struct{}) error {
	var timeUp <-chan time.Time
	if !c.stopAt.IsZero() {
		timer := time.NewTimer(time.Until(c.stopAt))
		defer timer.Stop()
		timeUp = timer.C
	}
	select {
	case <-done:
		return nil
	case <-c.ctx.Done():
	case <-timeUp:
	}
	if err := c.check(); err != nil {
		return err
	}
	return errTimeUp
}

// stage is what a read is doing, for the refusal when its time runs out.
type stage int

const (
	stageStart    stage = iota // not started
	stageOpen                  // opening the package
	stageDecrypt               // decrypting a protected package
	stageWorkbook              // reading the workbook part, styles, relationships
	stageStrings               // reading the shared string table
	stageSheet                 // reading a sheet
)

// progress records where a read is, so that a read that runs out of time
// can say what to narrow.
type progress struct {
	stage  stage
	sheet  string // the sheet being read
	index  int    // its 1-based position among the sheets profiled
	sheets int    // the sheets profiled
	row    int    // the last row read of it
}

// outOfTime turns a read that stopped at its deadline into the refusal
// that says where it stopped and what to narrow; a cancelled read (its
// caller went away) and any other error pass through.
func outOfTime(name string, err error, at *progress) error {
	if _, refusal := AsError(err); refusal || !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return &Error{Kind: KindUnavailable, Cause: err, Message: fmt.Sprintf(
		"%s: profiling did not finish within the call's time limit: it stopped %s. %s",
		name, at.where(), at.advice())}
}

// where says where the read stopped.
func (at *progress) where() string {
	switch at.stage {
	case stageStart:
		return "before it began"
	case stageOpen:
		return "while opening the package"
	case stageDecrypt:
		return "while decrypting the workbook"
	case stageWorkbook:
		return "while reading the workbook's sheet list, styles and names"
	case stageStrings:
		return "while reading the shared string table, which holds the text of every sheet"
	}
	return fmt.Sprintf("in sheet %q (sheet %d of %d) at row %s", at.sheet, at.index, at.sheets, groupDigits(at.row))
}

// advice says what to narrow.
func (at *progress) advice() string {
	const operator = "ask the operator to raise --call-timeout"
	switch at.stage {
	case stageDecrypt:
		return "Save a copy without a password and read that one, or " + operator + "."
	case stageStrings:
		return "Narrow the read: copy the sheets you need into a new workbook, which keeps only their text, and read that one; or " + operator + "."
	case stageSheet:
		return "Narrow the read: save that sheet, or the range you need from it, as a workbook of its own and read that one; or " + operator + "."
	}
	return "Narrow the read to a smaller workbook, or " + operator + "."
}

// groupDigits writes n with thousands separators: 1048576 is 1,048,576.
func groupDigits(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
