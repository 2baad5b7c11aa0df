// SPDX-License-Identifier: Apache-2.0

package trust

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/testkit"
)

// TestHangingServerLeavesChecksToTheOthers: in front of two Dagu servers,
// made-up keys sent to one that never answers take at most the lane's
// places in flight less one, and a key of the other server is still
// checked.
func TestHangingServerLeavesChecksToTheOthers(t *testing.T) {
	t.Parallel()
	clock := testkit.NewClock(time.Unix(1_000_000, 0))
	noCheck := func(context.Context, string) (Result, error) { return Result{}, errors.New("no server") }
	root, err := New(Options{Now: clock.Now, MaxChecksInFlight: 4, Check: noCheck})
	if err != nil {
		t.Fatal(err)
	}
	release, started := make(chan struct{}), make(chan struct{}, 100)
	hanging, err := root.Sibling(context.Background(), func(context.Context, string) (Result, error) {
		started <- struct{}{}
		<-release
		return Result{}, errors.New("no answer")
	})
	if err != nil {
		t.Fatal(err)
	}
	healthy, err := root.Sibling(context.Background(), (&fakeDagu{}).check)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var wg sync.WaitGroup
	defer wg.Wait()
	defer close(release)
	results := make(chan Decision, 4)
	for i := range 4 {
		wg.Go(func() {
			results <- hanging.Decide(ctx, fmt.Sprintf("dagu_made_up_%d", i), fmt.Sprintf("10.0.1.%d:1", i))
		})
	}
	for range 3 {
		<-started
	}
	select {
	case <-started:
		t.Fatal("the hanging server's made-up keys took every place in flight")
	case d := <-results:
		if d.Verdict != Unchecked {
			t.Fatalf("the fourth made-up key: %+v, want unchecked", d)
		}
	}
	if d := healthy.Decide(ctx, goodKey, "10.0.3.1:1"); d.Verdict != Verified {
		t.Errorf("a good key to the healthy server: %+v, want verified", d)
	}
}
