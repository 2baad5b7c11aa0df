// SPDX-License-Identifier: Apache-2.0

package config

import (
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestTokenFileLooksAtMostOncePerInterval: checks between two looks at the
// file cost no system call (each check stat'ed the file, and a request
// checked twice).
func TestTokenFileLooksAtMostOncePerInterval(t *testing.T) {
	t.Parallel()
	c, _, clk, _ := tokenFile(t, tokenA+"\n")
	var stats atomic.Int64
	c.stat = func(path string) (os.FileInfo, error) {
		stats.Add(1)
		return os.Stat(path)
	}
	for range 100 {
		if !accepts(c, tokenA) {
			t.Fatal("token not accepted")
		}
	}
	if got := stats.Load(); got != 1 {
		t.Fatalf("%d looks at the file for 100 checks within one interval, want 1", got)
	}
	clk.Advance(DefaultStatInterval - time.Nanosecond)
	accepts(c, tokenA)
	if got := stats.Load(); got != 1 {
		t.Fatalf("%d looks before the interval ended, want 1", got)
	}
	clk.Advance(time.Nanosecond)
	for range 100 {
		accepts(c, tokenA)
	}
	if got := stats.Load(); got != 2 {
		t.Fatalf("%d looks after the interval, want 2", got)
	}
}

// TestTokenFileReloadDoesNotHoldUpChecks: while one caller reads the file
// again, other checks answer at once with the tokens the reload replaces
// (the read was done under the lock every check waited on), and start no
// reload of their own: concurrent reloads coalesce.
func TestTokenFileReloadDoesNotHoldUpChecks(t *testing.T) {
	t.Parallel()
	c, _, clk, _ := tokenFile(t, tokenA+"\n")
	if !accepts(c, tokenA) {
		t.Fatal("token not accepted")
	}
	var reads atomic.Int64
	entered, release := make(chan struct{}), make(chan struct{})
	c.read = func(path string) ([]byte, os.FileInfo, error) {
		reads.Add(1)
		close(entered)
		<-release
		return readTokenFileOnce(path)
	}
	clk.Advance(DefaultContentCheck) // the look and the content read are due
	reloaded := make(chan bool)
	go func() { reloaded <- accepts(c, tokenA) }()
	<-entered
	for range 10 {
		if !accepts(c, tokenA) {
			t.Fatal("a check during a reload did not use the tokens in place")
		}
	}
	if got := reads.Load(); got != 1 {
		t.Errorf("%d reads for concurrent checks, want 1", got)
	}
	close(release)
	if !<-reloaded {
		t.Error("the reloading check refused the token")
	}
}

// TestTokenFileConcurrentChecksDuringRotation: checks from many goroutines
// while the file is rewritten and the clock moves see one of the file's
// versions each, never a mix of two, and no data race (run with -race).
func TestTokenFileConcurrentChecksDuringRotation(t *testing.T) {
	t.Parallel()
	c, path, clk, _ := tokenFile(t, tokenA+"\n")
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for range 8 {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				accepts(c, tokenA)
				accepts(c, tokenB)
				if entries, _ := c.Entries(); len(entries) > 1 {
					t.Errorf("%d tokens, the file never holds more than one", len(entries))
				}
			}
		})
	}
	for i := range 50 {
		token := tokenA
		if i%2 == 1 {
			token = tokenB
		}
		if err := os.WriteFile(path, []byte(token+"\n"), 0o600); err != nil {
			t.Error(err)
			break
		}
		clk.Advance(DefaultStatInterval)
	}
	close(stop)
	wg.Wait()
	clk.Advance(DefaultStatInterval)
	if !accepts(c, tokenB) || accepts(c, tokenA) {
		t.Error("after the rotations the last version is not the one accepted")
	}
}
