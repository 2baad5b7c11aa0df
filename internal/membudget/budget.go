// SPDX-License-Identifier: Apache-2.0

package membudget

import (
	"errors"
	"fmt"
	"sync/atomic"
	"time"
)

// RetryAfter is how long a refused caller is told to wait: memory in
// flight is released as answers are written, within a second or so.
const RetryAfter = time.Second

// ErrSpent is the refusal of a reservation that does not fit.
var ErrSpent = errors.New("memory budget spent")

// Budget counts the bytes reserved by everything in flight against a
// limit. A nil *Budget accounts nothing and refuses nothing. It is safe
// for concurrent use.
type Budget struct {
	name     string
	limit    int64
	used     atomic.Int64
	refusals atomic.Uint64
}

// New returns a budget of limit bytes (at least one byte).
func New(name string, limit int64) *Budget {
	return &Budget{name: name, limit: max(limit, 1)}
}

// Limit is the budget's size in bytes (0 for a nil budget).
func (b *Budget) Limit() int64 {
	if b == nil {
		return 0
	}
	return b.limit
}

// InUse is how many bytes are reserved now.
func (b *Budget) InUse() int64 {
	if b == nil {
		return 0
	}
	return b.used.Load()
}

// Refusals is how many reservations the budget has refused.
func (b *Budget) Refusals() uint64 {
	if b == nil {
		return 0
	}
	return b.refusals.Load()
}

// TryTake reserves n bytes when they fit, without waiting; it reports
// whether they were taken.
func (b *Budget) TryTake(n int64) bool {
	if b == nil || n <= 0 {
		return true
	}
	for {
		used := b.used.Load()
		if n > b.limit-used {
			b.refusals.Add(1)
			return false
		}
		if b.used.CompareAndSwap(used, used+n) {
			return true
		}
	}
}

// CountRefusal counts a refusal made for the budget by a bound within it
// (a caller's share of it), so Refusals shows every request it turned
// away.
func (b *Budget) CountRefusal() {
	if b != nil {
		b.refusals.Add(1)
	}
}

// Give returns n bytes taken before.
func (b *Budget) Give(n int64) {
	if b == nil || n <= 0 {
		return
	}
	b.used.Add(-n)
}

// Refusal is the error of a reservation that did not fit: it names the
// budget and says when to retry. errors.Is(err, ErrSpent) holds.
type Refusal struct {
	Budget string
	Limit  int64
	Asked  int64
}

func (r *Refusal) Error() string {
	return fmt.Sprintf("the %s of %d bytes is spent (%d more bytes asked)", r.Budget, r.Limit, r.Asked)
}

// Unwrap makes a refusal ErrSpent.
func (r *Refusal) Unwrap() error { return ErrSpent }

// Take is TryTake with a Refusal when the bytes do not fit.
func (b *Budget) Take(n int64) error {
	if b.TryTake(n) {
		return nil
	}
	return b.refusal(n)
}

func (b *Budget) refusal(n int64) *Refusal {
	return &Refusal{Budget: b.name, Limit: b.limit, Asked: n}
}
