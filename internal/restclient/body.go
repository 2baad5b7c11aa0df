// SPDX-License-Identifier: Apache-2.0

package restclient

import (
	"context"
	"errors"
	"fmt"
	"io"
)

// cappedBody is a 2xx response body that fails with KindTooLarge once more
// than limit bytes arrive, turns read failures into *Error values, and ends
// the call's context when closed.
type cappedBody struct {
	ctx    context.Context
	body   io.ReadCloser
	route  string
	limit  int64
	read   int64
	cancel context.CancelFunc
}

func newCappedBody(ctx context.Context, body io.ReadCloser, route string, limit int64, cancel context.CancelFunc) *cappedBody {
	return &cappedBody{ctx: ctx, body: body, route: route, limit: limit, cancel: cancel}
}

// Read reads at most one byte past the limit, which is how an oversized
// body is told apart from one of exactly limit bytes.
func (b *cappedBody) Read(p []byte) (int, error) {
	if b.read > b.limit {
		return 0, b.tooLarge()
	}
	if room := b.limit + 1 - b.read; int64(len(p)) > room {
		p = p[:room]
	}
	n, err := b.body.Read(p)
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
	return &Error{Route: b.route, Kind: KindTooLarge, Message: fmt.Sprintf("response body exceeds %d bytes", b.limit)}
}

// Close closes the body and releases the call's context.
func (b *cappedBody) Close() error {
	err := b.body.Close()
	b.cancel()
	return err
}

// readCapped reads a whole body, failing with KindTooLarge past limit.
func readCapped(ctx context.Context, body io.Reader, route string, limit int64) ([]byte, error) {
	capped := &cappedBody{ctx: ctx, body: io.NopCloser(body), route: route, limit: limit, cancel: func() {}}
	return io.ReadAll(capped)
}
