// SPDX-License-Identifier: Apache-2.0

package upstream

import (
	"context"
	"net/http"
	"sync"

	"github.com/dagu-mcp-gateway/gateway/internal/restclient"

	"golang.org/x/sync/errgroup"

	"github.com/dagu-mcp-gateway/gateway/internal/mapping"
	"github.com/dagu-mcp-gateway/gateway/internal/model"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient/gen"
)

// probeConcurrency bounds the calls one run_logs read has in flight.
const probeConcurrency = 8

// getRunLogs reads a root run's scheduler log and lists its steps' log
// streams: the run's details (1 call, resolving "latest"), the scheduler
// log's window with the resolved ID (1 call; a missing log file is an
// empty log), and one probe per recorded stream file (one for both
// streams when they share a file), so hasStdout and hasStderr say whether
// the file exists, not merely that a path was recorded. With a concrete run ID the scheduler log is read alongside the
// details; the probes follow the details. Calls run concurrently, at most
// probeConcurrency at a time.
//
// A final run's details, stream presence and scheduler-log windows come
// from the run cache once read: a repeated read makes no call at all.
func (a *Adapter) getRunLogs(ctx context.Context, addr model.RunAddress, q model.LogQuery) (*model.RunLogs, error) {
	if addr.SubRunID != "" {
		return nil, invalidInput(restclient.RouteRunLog, model.FieldSubRunID, model.ReasonRootRunLogsOnly)
	}
	w, defaulted := a.runLogWindow(q)
	r, err := a.readRunLogs(ctx, addr, w)
	if err != nil {
		return nil, err
	}
	scheduler := r.scheduler
	if defaulted {
		scheduler = mapping.KeepTail(scheduler, a.opts.LogBudget)
	}
	out := mapping.RunLogs(r.details, scheduler, r.presence, mapping.RunAddressForURIs{RootName: addr.Name, RootID: r.details.DagRunId})
	out.Final = finalRun(r.details)
	return &out, nil
}

// runLogsRead is what a run_logs answer is made of.
type runLogsRead struct {
	details   *gen.DAGRunDetails
	scheduler *gen.Log
	presence  map[string]mapping.StreamPresence
}

// readRunLogs gathers the parts of a run_logs answer, from the run cache
// where it can and with concurrent calls for the rest.
func (a *Adapter) readRunLogs(ctx context.Context, addr model.RunAddress, w restclient.LogWindow) (*runLogsRead, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(probeConcurrency)
	var r runLogsRead
	// While finished-run logs coalesce across replicas, the scheduler log
	// waits for the run's state, which keys the coalescing.
	early := addr.DAGRunID != latestRunID && !a.runs.has(ctx, restclient.RunRef{Name: addr.Name, RunID: addr.DAGRunID}) &&
		!a.runs.coalescing()
	if early {
		ref := restclient.RunRef{Name: addr.Name, RunID: addr.DAGRunID}
		g.Go(func() (err error) { r.scheduler, err = a.schedulerLog(gctx, ref, w); return err })
	}
	d, err := a.rootDetails(ctx, addr.Name, addr.DAGRunID)
	if err != nil {
		cancel()
		_ = g.Wait()
		return nil, blame(err, model.FieldDAGRunID, http.StatusNotFound)
	}
	r.details = d
	ref := restclient.RunRef{Name: addr.Name, RunID: d.DagRunId}
	final := finalRun(d)
	cachedLog, cachedPresence := false, false
	if final {
		if !early {
			r.scheduler, cachedLog = a.runs.storedSchedulerLog(ctx, ref, w)
		}
		r.presence, cachedPresence = a.runs.storedPresence(ctx, ref)
	}
	if !early && !cachedLog {
		g.Go(func() (err error) {
			if !final {
				r.scheduler, err = a.schedulerLog(gctx, ref, w)
				return err
			}
			r.scheduler, err = a.runs.loadSchedulerLog(gctx, ref, w, func(ctx context.Context) (*gen.Log, error) {
				return a.schedulerLog(ctx, ref, w)
			})
			return err
		})
	}
	var p *presence
	switch {
	case cachedPresence:
	case final && a.runs.coalescing():
		// One goroutine of g waits for the presence while its probes run
		// in a group of their own: together with the scheduler log, at
		// most probeConcurrency calls are in flight.
		g.Go(func() (err error) {
			r.presence, err = a.runs.loadPresence(gctx, ref, func(ctx context.Context) (map[string]mapping.StreamPresence, error) {
				return a.probeAll(ctx, ref, d, probeConcurrency-1)
			})
			return err
		})
	default:
		p = newPresence(len(d.Nodes))
		for i := range d.Nodes {
			a.probeStreams(gctx, g, ref, &d.Nodes[i], p)
		}
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	if final && !cachedLog {
		a.runs.keepSchedulerLog(ctx, ref, w, r.scheduler)
	}
	if p != nil {
		r.presence = p.m
	}
	if final && !cachedPresence {
		a.runs.keepPresence(ctx, ref, r.presence)
	}
	return &r, nil
}

// probeAll probes every recorded stream of the run's steps, at most limit
// at a time.
func (a *Adapter) probeAll(ctx context.Context, ref restclient.RunRef, d *gen.DAGRunDetails, limit int) (map[string]mapping.StreamPresence, error) {
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(limit)
	p := newPresence(len(d.Nodes))
	for i := range d.Nodes {
		a.probeStreams(gctx, g, ref, &d.Nodes[i], p)
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	return p.m, nil
}

// runLogWindow is the caller's window, or the last RunLogsTail lines;
// defaulted says the gateway chose it.
func (a *Adapter) runLogWindow(q model.LogQuery) (w restclient.LogWindow, defaulted bool) {
	w = restclient.LogWindow{Tail: q.Tail, Head: q.Head, Offset: q.Offset, Limit: q.Limit}
	if w == (restclient.LogWindow{}) {
		return restclient.LogWindow{Tail: a.opts.RunLogsTail}, true
	}
	return w, false
}

// schedulerLog reads the scheduler log; a missing log file (a 404, or
// 1.x's 500 for a file it cannot read, see unreadableLogFile) is an empty
// log. readRunLogs answers nothing before the run's details were read, so
// the log is taken for missing only once the run is known to exist.
func (a *Adapter) schedulerLog(ctx context.Context, ref restclient.RunRef, w restclient.LogWindow) (*gen.Log, error) {
	l, err := a.client.GetRunLog(ctx, ref, w)
	if isHTTP(err, http.StatusNotFound) || a.unreadableLogFile(err) {
		return &gen.Log{}, nil
	}
	return l, err
}

// presence collects probe results from concurrent probes.
type presence struct {
	mu sync.Mutex
	m  map[string]mapping.StreamPresence
}

func newPresence(n int) *presence {
	return &presence{m: make(map[string]mapping.StreamPresence, n)}
}

// set records that the step's file of each given stream exists.
func (p *presence) set(step string, streams ...gen.LogStream) {
	p.mu.Lock()
	defer p.mu.Unlock()
	s := p.m[step]
	for _, stream := range streams {
		if stream == gen.StreamStderr {
			s.Stderr = true
		} else {
			s.Stdout = true
		}
	}
	p.m[step] = s
}

// streamProbe is one file to probe and the streams its existence answers.
type streamProbe struct {
	stream  gen.LogStream
	answers []gen.LogStream
}

// probesOf lists the probes a step's recorded paths need: none for a
// stream without a path (it has no file), one per file, so streams that
// share one file (Dagu's merged log mode records the same path for both)
// cost one probe whose answer holds for both.
func probesOf(n *gen.Node) []streamProbe {
	switch {
	case n.Stdout != "" && n.Stdout == n.Stderr:
		return []streamProbe{{gen.StreamStdout, []gen.LogStream{gen.StreamStdout, gen.StreamStderr}}}
	case n.Stdout != "" && n.Stderr != "":
		return []streamProbe{{gen.StreamStdout, []gen.LogStream{gen.StreamStdout}}, {gen.StreamStderr, []gen.LogStream{gen.StreamStderr}}}
	case n.Stdout != "":
		return []streamProbe{{gen.StreamStdout, []gen.LogStream{gen.StreamStdout}}}
	case n.Stderr != "":
		return []streamProbe{{gen.StreamStderr, []gen.LogStream{gen.StreamStderr}}}
	}
	return nil
}

// probeStreams queues the step's probes (see probesOf).
func (a *Adapter) probeStreams(ctx context.Context, g *errgroup.Group, ref restclient.RunRef, n *gen.Node, p *presence) {
	step := n.Step.Name
	for _, pr := range probesOf(n) {
		g.Go(func() error {
			found, err := a.streamExists(ctx, ref, step, pr.stream)
			if found {
				p.set(step, pr.answers...)
			}
			return err
		})
	}
}

// streamExists reads the first line of a step's stream: 200 means the
// file exists, 404 (or 1.x's 500, see unreadableLogFile) that it does
// not. Probes follow the run's details, which name the step.
func (a *Adapter) streamExists(ctx context.Context, ref restclient.RunRef, step string, stream gen.LogStream) (bool, error) {
	_, err := a.client.GetStepLog(ctx, restclient.StepRef{Run: ref, Step: step}, stream, restclient.LogWindow{Head: 1})
	switch {
	case err == nil:
		return true, nil
	case isHTTP(err, http.StatusNotFound), a.unreadableLogFile(err):
		return false, nil
	}
	return false, err
}
