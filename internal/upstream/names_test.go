// SPDX-License-Identifier: Apache-2.0

package upstream

import (
	"context"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/testkit"
)

// TestExpiredDAGNamesAnswerWithoutWaitingForDagu expires the cached name
// list and then blocks Dagu's list route: the read still answers (with the
// old list) while the refresh waits in the background. Were the list read
// inline, the read would wait on the route, which is only released after
// the read answered, and the test would not end.
func TestExpiredDAGNamesAnswerWithoutWaitingForDagu(t *testing.T) {
	t.Parallel()
	clock := testkit.NewClock(fakeNow)
	env := newAdapterEnv(t, envOptions{adapter: func(o *AdapterOptions) { o.Now, o.DAGCacheTTL = clock.Now, DefaultDAGCacheTTL }})
	var blocking atomic.Bool
	var pages atomic.Int32 // how many one-DAG pages Dagu lists
	pages.Store(1)
	entered, release := make(chan struct{}, 1), make(chan struct{})
	var releaseOnce sync.Once
	t.Cleanup(func() { releaseOnce.Do(func() { close(release) }) })
	env.setIntercept(func(w http.ResponseWriter, r *http.Request) bool {
		if r.URL.Path != "/api/v1/dags" {
			return false
		}
		if blocking.Load() {
			select {
			case entered <- struct{}{}:
			default:
			}
			<-release
		}
		page, _ := strconv.Atoi(r.URL.Query().Get("page"))
		return answerJSON(w, http.StatusOK, dagPage(page, int(pages.Load())))
	})
	read := func(want ...string) {
		t.Helper()
		names, err := env.adapter.DAGNames(context.Background())
		if err != nil {
			t.Fatalf("DAGNames: %v", err)
		}
		if !slices.Equal(names, want) {
			t.Fatalf("DAGNames = %q, want %q", names, want)
		}
	}

	read("dag_1")
	clock.Advance(DefaultDAGCacheTTL) // expired, within the stale window
	pages.Store(2)
	blocking.Store(true)
	read("dag_1") // answered while Dagu holds the refresh
	<-entered     // the refresh is reading Dagu
	blocking.Store(false)
	releaseOnce.Do(func() { close(release) })
	env.adapter.dags.waitRefreshes()
	read("dag_1", "dag_2")

	clock.Advance(2 * DefaultDAGCacheTTL) // past the window: read inline
	pages.Store(3)
	read("dag_1", "dag_2", "dag_3")
}
