// SPDX-License-Identifier: Apache-2.0

package workbook

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestDecryptionKeepsTheSlotUntilItEnds stops a read while excelize
// decrypts its workbook (which it cannot interrupt): the read answers at
// once, and its slot stays taken until the decryption has ended, so no
// more than Concurrency reads' work ever runs.
func TestDecryptionKeepsTheSlotUntilItEnds(t *testing.T) {
	t.Parallel()
	path := encryptedBook(t, "pw")
	p := newProfiler(t, Config{Concurrency: 1})
	ctx, cancel := context.WithCancel(context.Background())
	release := make(chan struct{})
	p.duringDecrypt = func() {
		cancel()
		<-release
	}
	if _, err := p.Profile(ctx, path, "pw"); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if p.slots.TryAcquire(1) {
		t.Fatal("the slot was given back while the decryption still ran")
	}
	close(release)
	wait, stop := context.WithTimeout(context.Background(), time.Minute)
	defer stop()
	if err := p.slots.Acquire(wait, 1); err != nil {
		t.Fatalf("the slot was not given back after the decryption ended: %v", err)
	}
	p.slots.Release(1)
}
