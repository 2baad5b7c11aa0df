// SPDX-License-Identifier: Apache-2.0

package main

import (
	"context"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"
)

// maxErrorSamples is how many distinct error messages a report shows.
const maxErrorSamples = 3

// result is what a load run measured.
type result struct {
	elapsed time.Duration
	total   histogram
	targets map[string]*targetStats
	calls   int64
	errors  int64
	samples []string
	// rss is the gateway's peak RSS in bytes, when -pid was given and it
	// could be read (rssErr says why not).
	rss    int64
	rssErr error
	// cpu is the CPU time the gateway used during the run, when -pid was
	// given and it could be read (cpuErr says why not).
	cpu    time.Duration
	cpuErr error
	// trips is the round trips per target (round-trip mode only).
	trips map[string]*tripStats
}

// targetStats is one target's share of a run.
type targetStats struct {
	latency histogram
	calls   int64
	errors  int64
}

// clientStats is what one client saw; only its goroutine writes it.
type clientStats struct {
	targets map[string]*targetStats
	samples []string
	trips   map[string]*tripStats // round-trip mode only
}

// runLoad connects every client, runs the load until the duration ends,
// the call budget is spent or ctx ends, and gathers the measurements.
func runLoad(ctx context.Context, cfg config) (*result, error) {
	hc := newHTTPClient(cfg)
	defer hc.CloseIdleConnections()
	callers, err := connectAll(ctx, cfg, hc)
	if err != nil {
		return nil, err
	}
	defer func() {
		for _, c := range callers {
			c.close()
		}
	}()
	stats := make([]clientStats, len(callers))
	budget := newBudget(cfg.maxCalls)
	cpu := startCPU(cfg.pid)
	loopCtx, cancel := context.WithTimeout(ctx, cfg.duration)
	defer cancel()
	start := time.Now()
	var wg sync.WaitGroup
	for i, c := range callers {
		wg.Go(func() { stats[i] = drive(ctx, loopCtx, cfg, c, i, budget) })
	}
	wg.Wait()
	res := gather(cfg, stats, time.Since(start))
	if cfg.pid > 0 {
		res.cpu, res.cpuErr = cpu()
		res.rss, res.rssErr = peakRSS(cfg.pid)
	}
	return res, nil
}

// startCPU reads a process's CPU time now and returns a function that
// reports how much it used since.
func startCPU(pid int) func() (time.Duration, error) {
	if pid <= 0 {
		return func() (time.Duration, error) { return 0, nil }
	}
	before, err := cpuTime(pid)
	return func() (time.Duration, error) {
		if err != nil {
			return 0, err
		}
		after, err := cpuTime(pid)
		return after - before, err
	}
}

// connectAll prepares one caller per client; MCP clients connect
// concurrently, each bounded by the call timeout.
func connectAll(ctx context.Context, cfg config, hc *http.Client) ([]caller, error) {
	callers := make([]caller, cfg.clients)
	if cfg.direct != "" {
		now := time.Now()
		for i := range callers {
			callers[i] = newRESTCaller(cfg, hc, now)
		}
		return callers, nil
	}
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(8)
	for i := range callers {
		g.Go(func() error {
			cctx, cancel := context.WithTimeout(gctx, cfg.timeout)
			defer cancel()
			c, err := dialMCP(cctx, cfg, hc)
			callers[i] = c
			return err
		})
	}
	if err := g.Wait(); err != nil {
		for _, c := range callers {
			if c != nil {
				c.close()
			}
		}
		return nil, err
	}
	return callers, nil
}

// drive makes one client's calls, taking the mix in turn from its own
// offset, until loopCtx ends or the budget is spent. A call already
// started finishes (bounded by the timeout) unless ctx ends.
func drive(ctx, loopCtx context.Context, cfg config, c caller, offset int, budget *budget) clientStats {
	s := clientStats{targets: make(map[string]*targetStats, len(cfg.mix))}
	for i := offset; loopCtx.Err() == nil && budget.take(); i++ {
		name := cfg.mix[i%len(cfg.mix)]
		callCtx, cancel := context.WithTimeout(ctx, cfg.timeout)
		if cfg.proxy != nil {
			cfg.proxy.take() // requests made between reads are no read's
		}
		began := time.Now()
		err := c.call(callCtx, name)
		took := time.Since(began)
		cancel()
		s.record(name, took, err)
		if cfg.proxy != nil && err == nil {
			s.trip(name, took, cfg.proxy)
		}
	}
	return s
}

// trip records the upstream requests of the read that just ended.
func (s *clientStats) trip(name string, took time.Duration, p *delayProxy) {
	if s.trips == nil {
		s.trips = make(map[string]*tripStats)
	}
	t := s.trips[name]
	if t == nil {
		t = &tripStats{}
		s.trips[name] = t
	}
	spans, lost := p.take()
	t.add(tripSample{took: took, depth: chainDepth(spans), calls: len(spans) + lost}, lost)
}

// record counts one call.
func (s *clientStats) record(name string, took time.Duration, err error) {
	t := s.targets[name]
	if t == nil {
		t = &targetStats{}
		s.targets[name] = t
	}
	t.calls++
	if err != nil {
		t.errors++
		if len(s.samples) < maxErrorSamples {
			s.samples = append(s.samples, name+": "+truncate(err.Error(), 300))
		}
		return
	}
	t.latency.add(took)
}

// gather merges the clients' stats.
func gather(cfg config, stats []clientStats, elapsed time.Duration) *result {
	res := &result{elapsed: elapsed, targets: make(map[string]*targetStats, len(cfg.mix))}
	for _, s := range stats {
		for name, t := range s.targets {
			all := res.targets[name]
			if all == nil {
				all = &targetStats{}
				res.targets[name] = all
			}
			all.latency.merge(&t.latency)
			all.calls += t.calls
			all.errors += t.errors
			res.total.merge(&t.latency)
			res.calls += t.calls
			res.errors += t.errors
		}
		for name, t := range s.trips {
			if res.trips == nil {
				res.trips = make(map[string]*tripStats)
			}
			if res.trips[name] == nil {
				res.trips[name] = &tripStats{}
			}
			res.trips[name].merge(t)
		}
		for _, m := range s.samples {
			if len(res.samples) < maxErrorSamples {
				res.samples = append(res.samples, m)
			}
		}
	}
	return res
}

// budget is the run's remaining call count; unlimited when built from 0.
type budget struct {
	limited bool
	left    atomic.Int64
}

func newBudget(n int64) *budget {
	b := &budget{limited: n > 0}
	b.left.Store(n)
	return b
}

// take claims one call; false when the budget is spent.
func (b *budget) take() bool {
	return !b.limited || b.left.Add(-1) >= 0
}
