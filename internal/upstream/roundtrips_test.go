// SPDX-License-Identifier: Apache-2.0

package upstream

import (
	"context"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
	"github.com/dagu-mcp-gateway/gateway/internal/model"
)

// pairWait bounds how long a held request waits for its partner. It is
// not a measure of speed: a read that sends the two calls together pairs
// them at once, and one that chains them never does.
const pairWait = 5 * time.Second

// pairing holds the first request matching lead until one matching follow
// has arrived (or pairWait passed), and records whether it did: the two
// calls were in flight together, so the read waits on one round trip for
// both. A read that sends follow only after lead's answer leaves it
// unpaired.
type pairing struct {
	lead, follow func(path string) bool
	arrived      chan struct{}
	once         sync.Once
	paired       atomic.Bool
	held         atomic.Bool
}

func newPairing(lead, follow func(path string) bool) *pairing {
	return &pairing{lead: lead, follow: follow, arrived: make(chan struct{})}
}

func (p *pairing) intercept(_ http.ResponseWriter, r *http.Request) bool {
	switch {
	case p.follow(r.URL.Path):
		p.once.Do(func() { close(p.arrived) })
	case p.lead(r.URL.Path) && p.held.CompareAndSwap(false, true):
		select {
		case <-p.arrived:
			p.paired.Store(true)
		case <-time.After(pairWait):
		case <-r.Context().Done():
		}
	}
	return false
}

func pathEnds(suffix string) func(string) bool {
	return func(path string) bool { return strings.HasSuffix(path, suffix) }
}

// TestReadsSendIndependentCallsTogether: where a read needs two calls
// that do not depend on each other, both are in flight at once.
func TestReadsSendIndependentCallsTogether(t *testing.T) {
	t.Parallel()
	foreachDetails := pathEnds("/dag-runs/foreach_job/" + foreachRun)
	summary := pathEnds("/steps/each/log/download")
	item := stepOf(runOf("foreach_job", foreachRun), "each")
	item.Item = "1"
	events := pathEnds("/event-logs")
	sub := model.RunAddress{Name: "parent_job", DAGRunID: parentRun, SubRunID: childRun}
	tests := []struct {
		name         string
		role         string
		lead, follow func(string) bool
		read         func(ctx context.Context, a *Adapter) error
	}{
		{
			name: "run: the details and the attempt's event", role: "manager", lead: pathEnds("/dag-runs/failing_job/" + failingRun), follow: events,
			read: func(ctx context.Context, a *Adapter) error {
				return ignore(a.GetRun(ctx, runOf("failing_job", failingRun)))
			},
		},
		{
			name: "run latest: the alias and the DAG's newest event", role: "manager", lead: pathEnds("/dag-runs/failing_job/latest"), follow: events,
			read: func(ctx context.Context, a *Adapter) error {
				return ignore(a.GetRun(ctx, runOf("failing_job", "latest")))
			},
		},
		{
			name: "sub-run: the details and the sub-run's event", role: "manager", lead: pathEnds("/sub-dag-runs/" + childRun), follow: events,
			read: func(ctx context.Context, a *Adapter) error { return ignore(a.GetRun(ctx, sub)) },
		},
		{
			name: "foreach items: the run's details and the summary", lead: foreachDetails, follow: summary,
			read: func(ctx context.Context, a *Adapter) error {
				return ignore(a.ListForeachItems(ctx, stepOf(runOf("foreach_job", foreachRun), "each"), model.ForeachQuery{}))
			},
		},
		{
			name: "foreach item: the run's details and the summary", lead: foreachDetails, follow: summary,
			read: func(ctx context.Context, a *Adapter) error { return ignore(a.GetForeachItem(ctx, item)) },
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			env := newAdapterEnv(t, envOptions{fake: fakedagu.Options{Role: tt.role}, detect: true})
			p := newPairing(tt.lead, tt.follow)
			env.setIntercept(p.intercept)
			if err := tt.read(context.Background(), env.adapter); err != nil {
				t.Fatal(err)
			}
			if !p.held.Load() || !p.paired.Load() {
				t.Errorf("the calls were not in flight together (lead seen %v)", p.held.Load())
			}
		})
	}
}

// TestAttemptReadAheadIsCheckedAgainstTheRun: the event read sent with a
// "latest" or sub-run read selects by what the address names, so its
// answer counts only when it is exactly the resolved run's; otherwise the
// exact read follows and the attempt ID is the one a run read by its
// concrete ID gets.
func TestAttemptReadAheadIsCheckedAgainstTheRun(t *testing.T) {
	t.Parallel()
	env := newAdapterEnv(t, envOptions{fake: fakedagu.Options{Role: "manager"}, detect: true})
	ctx := context.Background()
	exact, err := env.adapter.GetRun(ctx, runOf("failing_job", failingRun))
	if err != nil || exact.AttemptID == "" {
		t.Fatalf("run by ID: attempt %q, error %v", exact.AttemptID, err)
	}
	tests := []struct {
		name string
		// loose answers the read ahead (no dagRunId in its query) in place
		// of the fake; "" lets the fake answer it.
		loose string
		// exactRead: the exact read (with dagRunId) must follow.
		exactRead bool
	}{
		{name: "the newest event is the run's"},
		{name: "the newest event is another run's", exactRead: true, loose: `{"entries":[{"kind":"dag_run","dagName":"failing_job","dagRunId":"older","attemptId":"att_other"}],"total":1}`},
		{name: "the DAG has no event", exactRead: true, loose: `{"entries":[],"total":0}`},
		{name: "the read ahead failed", exactRead: true, loose: "500"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env.setIntercept(func(w http.ResponseWriter, r *http.Request) bool {
				if tt.loose == "" || !strings.HasSuffix(r.URL.Path, "/event-logs") || r.URL.Query().Has("dagRunId") {
					return false
				}
				if tt.loose == "500" {
					return answerJSON(w, http.StatusInternalServerError, `{"code":"internal_error","message":"x"}`)
				}
				return answerJSON(w, http.StatusOK, tt.loose)
			})
			defer env.setIntercept(nil)
			var got *model.RunDetail
			calls := env.calls(func() { got, err = env.adapter.GetRun(ctx, runOf("failing_job", "latest")) })
			if err != nil {
				t.Fatal(err)
			}
			if got.AttemptID != exact.AttemptID {
				t.Errorf("attempt %q, want %q", got.AttemptID, exact.AttemptID)
			}
			exactSent := slices.ContainsFunc(calls, func(c string) bool { return strings.Contains(c, "/event-logs?") && strings.Contains(c, "dagRunId=") })
			if exactSent != tt.exactRead {
				t.Errorf("calls %q: exact event read sent %v, want %v", calls, exactSent, tt.exactRead)
			}
		})
	}
}

// TestDAGNamePagesAreReadTogether: after the first page, which tells how
// many there are, the other pages are read together, namesConcurrency at
// a time (the first of them are held until all arrived), in page order; a
// list that grew while it was read is followed, an empty page ends it, and
// namesMaxPages bounds it.
func TestDAGNamePagesAreReadTogether(t *testing.T) {
	t.Parallel()
	names := func(pages ...int) []string {
		var out []string
		for _, p := range pages {
			out = append(out, "dag_"+strconv.Itoa(p))
		}
		return out
	}
	tests := []struct {
		name string
		// total is the page count a page reports (page 1's and later ones').
		first, later int
		empty        int // a page answered with no DAGs (0: none)
		together     int // pages held until all of them arrived
		want         []string
	}{
		{name: "one page", first: 1, want: names(1)},
		{name: "five pages", first: 5, later: 5, together: 4, want: names(1, 2, 3, 4, 5)},
		{name: "grew while read", first: 3, later: 4, together: 2, want: names(1, 2, 3, 4)},
		{name: "an empty page ends it", first: 4, later: 4, empty: 3, together: 3, want: names(1, 2)},
		{name: "bounded", first: 50, later: 50, together: namesConcurrency, want: names(firstPages(namesMaxPages)...)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			env := newAdapterEnv(t, envOptions{})
			var held sync.WaitGroup
			held.Add(tt.together)
			all := make(chan struct{})
			go func() { held.Wait(); close(all) }()
			var apart atomic.Int32
			env.setIntercept(func(w http.ResponseWriter, r *http.Request) bool {
				if r.URL.Path != "/api/v1/dags" {
					return false
				}
				page, _ := strconv.Atoi(r.URL.Query().Get("page"))
				total := tt.first
				if page > 1 {
					total = tt.later
					if page-1 <= tt.together {
						held.Done()
						select {
						case <-all:
						case <-time.After(pairWait):
							apart.Add(1)
						}
					}
				}
				if page == tt.empty {
					return answerJSON(w, http.StatusOK, `{"dags":[],"errors":[],"pagination":{"totalRecords":0,"currentPage":`+strconv.Itoa(page)+`,"totalPages":`+strconv.Itoa(total)+`,"nextPage":1,"prevPage":1}}`)
				}
				return answerJSON(w, http.StatusOK, dagPage(page, total))
			})
			got, err := env.adapter.DAGNames(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("names %q, want %q", got, tt.want)
			}
			if apart.Load() > 0 {
				t.Errorf("%d pages were not read together with the others", apart.Load())
			}
		})
	}
}

// firstPages is 1..n.
func firstPages(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i + 1
	}
	return out
}

// TestLatestSkipsASummaryNoCachedRunCanAnswer: with the caches on, the
// newest-run summary is read only when the DAG's latest run last resolved
// to a run the run cache holds; a live latest run (never cached) is read
// through the alias alone, one round trip, every time.
func TestLatestSkipsASummaryNoCachedRunCanAnswer(t *testing.T) {
	t.Parallel()
	env := cachedEnv(t, fakedagu.Options{})
	for i := range 3 {
		var err error
		got := env.calls(func() { err = ignore(env.adapter.GetRun(context.Background(), runOf("nested_foreach_job", "latest"))) })
		if err != nil {
			t.Fatal(err)
		}
		if want := []string{"/dag-runs/nested_foreach_job/latest"}; !slices.Equal(got, want) {
			t.Errorf("read %d calls %q, want %q", i+1, got, want)
		}
	}
}
