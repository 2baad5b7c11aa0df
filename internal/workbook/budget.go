// SPDX-License-Identifier: Apache-2.0

package workbook

import "errors"

// memoryBudget accounts, in bytes, what one read keeps in memory against
// the operator's limit (--workbook-max-memory): the zip directory, the
// shared string table, styles, sheet and name lists, the per-sheet
// statistics, scratch buffers and the profile being built. Every structure
// that grows with the input reserves its bytes before it allocates them
// and releases them when it is dropped.
//
// The first reservation that would pass the limit fails with the read's
// memory error, and so does every later one: a caller that ignores one
// refusal still stops at the next. A nil budget accounts nothing, for
// unit tests of the parsers.
//
// A budget belongs to one read and is not safe for concurrent use.
type memoryBudget struct {
	limit int64
	used  int64
	peak  int64
	err   error
	// refuse builds the error returned once the limit is reached.
	refuse func(limit int64) error
}

// newMemoryBudget returns a budget of limit bytes whose refusals name the
// workbook.
func newMemoryBudget(limit int64, workbookName string) *memoryBudget {
	return &memoryBudget{limit: limit, refuse: func(limit int64) error {
		return errMemoryLimit(workbookName, limit)
	}}
}

// reserve accounts n more bytes, or fails when they do not fit.
func (b *memoryBudget) reserve(n int64) error {
	if b == nil {
		return nil
	}
	if b.err != nil {
		return b.err
	}
	if n < 0 || n > b.limit-b.used {
		b.err = b.refuse(b.limit)
		return b.err
	}
	b.used += n
	b.peak = max(b.peak, b.used)
	return nil
}

// errBoundReached is exhaust's error without a budget.
var errBoundReached = errors.New("a fixed memory bound is reached")

// exhaust refuses the read as if its budget were spent: for a structure
// that reaches a fixed bound of its own.
func (b *memoryBudget) exhaust() error {
	if b == nil {
		return errBoundReached
	}
	if b.err == nil {
		b.err = b.refuse(b.limit)
	}
	return b.err
}

// release gives back n bytes reserved before. Releasing more than is
// reserved leaves nothing reserved.
func (b *memoryBudget) release(n int64) {
	if b == nil || n <= 0 {
		return
	}
	b.used = max(0, b.used-n)
}

// failed returns the refusal once the budget has refused, else nil.
func (b *memoryBudget) failed() error {
	if b == nil {
		return nil
	}
	return b.err
}

// charge is a running total of what one structure reserved, so that it
// can give all of it back when it is dropped.
type charge struct {
	mem   *memoryBudget
	total int64
}

// add reserves n bytes for the structure.
func (c *charge) add(n int64) error {
	if err := c.mem.reserve(n); err != nil {
		return err
	}
	c.total += n
	return nil
}

// drop gives back n of the bytes the structure reserved.
func (c *charge) drop(n int64) {
	n = min(n, c.total)
	c.mem.release(n)
	c.total -= n
}

// releaseAll gives back everything the structure reserved.
func (c *charge) releaseAll() {
	c.mem.release(c.total)
	c.total = 0
}

// growSlice returns s with room for at least n more elements. When it
// must reallocate, it reserves the new array before allocating it (while
// the old one is still alive) and releases the old array after the copy,
// so the budget sees the true peak. Growth is by half again, never more.
func growSlice[T any](c *charge, s []T, n int, elemSize int64) ([]T, error) {
	need := len(s) + n
	if need <= cap(s) {
		return s, nil
	}
	newCap := max(need, cap(s)+cap(s)/2, 16)
	if err := c.add(int64(newCap) * elemSize); err != nil {
		return s, err
	}
	grown := make([]T, len(s), newCap)
	copy(grown, s)
	c.drop(int64(cap(s)) * elemSize)
	return grown, nil
}
