// SPDX-License-Identifier: Apache-2.0

package membudget

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

// RetryAfter is how long a refused caller is told to wait: memory in
// flight is released as answers are written, within a second or so.
const RetryAfter = time.Second

// ErrSpent is the refusal of a reservation that does not fit.
var ErrSpent = errors.New("memory budget spent")

// Budget counts the bytes reserved by everything in flight against a
// limit, and what each caller and each instance holds of it against its
// share (shares.go). A nil *Budget accounts nothing and refuses nothing.
// It is safe for concurrent use.
type Budget struct {
	name     string
	limit    int64
	inUse    atomic.Int64 // used, for readers that take no lock
	refusals atomic.Uint64
	wait     time.Duration    // the longest a reservation waits (ShareWait)
	now      func() time.Time // the clock of the instances' linger

	mu      sync.Mutex
	used    int64
	floor   int64                      // the least a share is (RaiseFloor)
	members [levels]map[string]*member // the shares in use, per level
	queue   []*waiter                  // reservations waiting, in arrival order
}

// New returns a budget of limit bytes (at least one byte).
func New(name string, limit int64) *Budget {
	b := &Budget{name: name, limit: max(limit, 1), wait: ShareWait, now: time.Now}
	for lv := range b.members {
		b.members[lv] = map[string]*member{}
	}
	return b
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
	return b.inUse.Load()
}

// Refusals is how many reservations the budget has refused.
func (b *Budget) Refusals() uint64 {
	if b == nil {
		return 0
	}
	return b.refusals.Load()
}

// TryTake reserves n bytes that count against no share (work no caller's
// request carries) when they fit, without waiting; it reports whether
// they were taken.
func (b *Budget) TryTake(n int64) bool {
	if b == nil || n <= 0 {
		return true
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if n > b.limit-b.used {
		b.refusals.Add(1)
		return false
	}
	b.take(Owner{}, n)
	return true
}

// CountRefusal counts a refusal made for the budget by a bound within it,
// so Refusals shows every request it turned away.
func (b *Budget) CountRefusal() {
	if b != nil {
		b.refusals.Add(1)
	}
}

// Give returns n bytes taken by TryTake.
func (b *Budget) Give(n int64) {
	if b == nil || n <= 0 {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.give(Owner{}, n)
}

// Refusal is the error of a reservation that did not fit: it names the
// budget, says whether the caller's or the instance's share refused it
// (rather than the budget as a whole), and when to retry.
// errors.Is(err, ErrSpent) holds.
type Refusal struct {
	Budget string
	Limit  int64
	Asked  int64
	// Share is true when the reservation did not fit its share: what the
	// same caller (or instance) holds already refused it.
	Share bool
}

func (r *Refusal) Error() string {
	if r.Share {
		return fmt.Sprintf("the caller's share of the %s of %d bytes is spent (%d more bytes asked)", r.Budget, r.Limit, r.Asked)
	}
	return fmt.Sprintf("the %s of %d bytes is spent (%d more bytes asked)", r.Budget, r.Limit, r.Asked)
}

// Unwrap makes a refusal ErrSpent.
func (r *Refusal) Unwrap() error { return ErrSpent }

// Take is TryTake with a Refusal when the bytes do not fit.
func (b *Budget) Take(n int64) error {
	if b.TryTake(n) {
		return nil
	}
	return b.refusal(n, false)
}

func (b *Budget) refusal(n int64, share bool) *Refusal {
	return &Refusal{Budget: b.name, Limit: b.limit, Asked: n, Share: share}
}
