// SPDX-License-Identifier: Apache-2.0

package restclient

import (
	"context"
	"errors"
	"fmt"
	"io"
)

// cappedBody is a 2xx response body that fails (Error.BodyLimit) once more
// than limit bytes arrive, turns read failures into *Error values, holds
// its bytes against the shared body budget, and ends the call's context
// and returns its budget when closed.
type cappedBody struct {
	ctx    context.Context
	body   io.ReadCloser
	route  string
	limit  int64
	read   int64
	cancel context.CancelFunc
	// budget is drawn on as bytes arrive unless the whole declared length
	// was reserved up front (declared); reserved is what Close returns.
	budget   *bodyBudget
	declared bool
	reserved int64
}

// newCappedBody wraps a 2xx body; declared is the length already reserved
// from budget (negative: none, the body reserves as it is read).
func newCappedBody(ctx context.Context, body io.ReadCloser, route string, limit int64, cancel context.CancelFunc,
	budget *bodyBudget, declared int64) *cappedBody {
	b := &cappedBody{ctx: ctx, body: body, route: route, limit: limit, cancel: cancel, budget: budget}
	if declared >= 0 {
		b.declared, b.reserved = true, declared
	}
	return b
}

// Read reads at most one byte past the limit, which is how an oversized
// body is told apart from one of exactly limit bytes. A body without a
// declared length reserves room for p before reading into it and gives
// back what did not arrive.
func (b *cappedBody) Read(p []byte) (int, error) {
	if b.read > b.limit {
		return 0, b.tooLarge()
	}
	if room := b.limit + 1 - b.read; int64(len(p)) > room {
		p = p[:room]
	}
	if !b.declared && b.budget != nil {
		if err := b.budget.reserveArriving(b.ctx, b.route, int64(len(p))); err != nil {
			return 0, err
		}
		b.reserved += int64(len(p))
	}
	n, err := b.body.Read(p)
	if !b.declared && b.budget != nil {
		b.budget.release(b.ctx, int64(len(p)-n))
		b.reserved -= int64(len(p) - n)
	}
	b.read += int64(n)
	if b.read > b.limit {
		return n - int(b.read-b.limit), b.tooLarge()
	}
	if err != nil && !errors.Is(err, io.EOF) {
		return n, transportError(b.ctx, b.route, err)
	}
	return n, err
}

func (b *cappedBody) tooLarge() error {
	return &Error{Route: b.route, BodyLimit: b.limit, Excerpt: fmt.Sprintf("response body exceeds %d bytes", b.limit)}
}

// Close closes the body and releases the call's context and the budget
// the body held. It may be called more than once.
func (b *cappedBody) Close() error {
	err := b.body.Close()
	b.cancel()
	if b.budget != nil {
		b.budget.release(b.ctx, b.reserved)
		b.reserved = 0
	}
	return err
}

// readCapped reads a whole body, failing (Error.BodyLimit) past limit.
func readCapped(ctx context.Context, body io.Reader, route string, limit int64) ([]byte, error) {
	capped := &cappedBody{ctx: ctx, body: io.NopCloser(body), route: route, limit: limit, cancel: func() {}}
	return io.ReadAll(capped)
}
