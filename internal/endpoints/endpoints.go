// SPDX-License-Identifier: Apache-2.0

// Package endpoints serves the instances of an instances file to the front
// door: it keeps one Member per instance in an instances.Pool (built by the
// command's wiring), and answers for all of them what the front door and
// the operator ask of the whole (frontdoor.Endpoints, /metrics with an
// instance label, /readyz, the passthrough check of a /metrics caller).
package endpoints

import (
	"context"
	"slices"
	"sync"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"github.com/dagu-mcp-gateway/gateway/internal/frontdoor"
	"github.com/dagu-mcp-gateway/gateway/internal/instances"
	"github.com/dagu-mcp-gateway/gateway/internal/reqctx"
	"github.com/dagu-mcp-gateway/gateway/internal/telemetry"
)

// Member is one instance's wired gateway.
type Member struct {
	// Endpoint is what the front door serves at /dagu/<name>/mcp.
	Endpoint frontdoor.Endpoint
	// Metrics gathers the instance's own metrics (its registry).
	Metrics prometheus.Gatherer
	// Ready answers the instance's part of /readyz.
	Ready func(ctx context.Context, detailed bool) (bool, any)
	// Close releases the instance (called once no request holds it).
	Close func()
}

// Set is the instances in service. It is safe for concurrent use.
type Set struct {
	pool    *instances.Pool[*Member]
	auth    string
	process prometheus.Gatherer
}

// New returns an empty set whose members build builds; auth is the
// process's --upstream-auth, which every instance must agree with, and
// process the metrics of the process (gathered without the label).
func New(build func(instances.Instance) (*Member, error), auth string, process prometheus.Gatherer) *Set {
	return &Set{pool: instances.NewPool(build, func(m *Member) { m.Close() }), auth: auth, process: process}
}

// Apply puts a version of the instances file in service (see
// instances.Pool.Apply), after checking that its instances agree with the
// process's upstream authentication.
func (s *Set) Apply(set instances.Set) error {
	if err := instances.CheckAuth(set, s.auth); err != nil {
		return err
	}
	return s.pool.Apply(set)
}

// Endpoint is frontdoor.Endpoints: the instance's endpoint, held until
// release.
func (s *Set) Endpoint(name string) (frontdoor.Endpoint, func(), bool) {
	m, release, ok := s.pool.Acquire(name)
	if !ok {
		return frontdoor.Endpoint{}, nil, false
	}
	return m.Endpoint, release, true
}

// Names is frontdoor.Endpoints: the instances in service, in file order.
func (s *Set) Names() []string { return s.pool.Names() }

// Each calls fn with every instance in service and its member.
func (s *Set) Each(fn func(instances.Instance, *Member)) { s.pool.Each(fn) }

// InstanceLabel is the label of an instance's metrics. Not "instance":
// Prometheus gives every scraped series that target label itself and would
// rename the gateway's to exported_instance.
const InstanceLabel = "dagu_instance"

// Gather gathers the process's metrics and every instance's, the latter
// labelled dagu_instance="<name>" (names are the file's: bounded).
func (s *Set) Gather() ([]*dto.MetricFamily, error) {
	gatherers := prometheus.Gatherers{s.process}
	s.pool.Each(func(in instances.Instance, m *Member) {
		gatherers = append(gatherers, telemetry.WithLabel(m.Metrics, InstanceLabel, in.Name))
	})
	return gatherers.Gather()
}

// Ready answers /readyz: ready while at least one instance is, so that one
// Dagu's outage never takes the gateway out of a load balancer for the
// others. The status is "ready" when every instance is, "degraded" when
// some are not, "not ready" (503) when none is. Instances are asked at
// once, so one Dagu that does not answer cannot spend the others' time; a
// trusted caller gets each instance's answer under "instances", the open
// answer names none.
func (s *Set) Ready(ctx context.Context, detailed bool) (bool, any) {
	names := s.pool.Names()
	oks, bodies := make([]bool, len(names)), make([]any, len(names))
	var wg sync.WaitGroup
	for i, name := range names {
		wg.Go(func() {
			if m, release, ok := s.pool.Acquire(name); ok {
				defer release()
				oks[i], bodies[i] = m.Ready(ctx, detailed)
			}
		})
	}
	wg.Wait()
	up, each := 0, map[string]any{}
	for i, name := range names {
		if oks[i] {
			up++
		}
		each[name] = bodies[i]
	}
	body := map[string]any{"status": readyStatus(up, len(names))}
	if detailed {
		body["instances"] = each
	}
	return up > 0, body
}

// readyStatus names the state of up ready instances out of total.
func readyStatus(up, total int) string {
	switch {
	case up == 0:
		return "not ready"
	case up < total:
		return "degraded"
	default:
		return "ready"
	}
}

// ReadyInstance answers /readyz?instance=NAME (frontdoor.Options.
// ReadyInstance): that instance's answer; found is false for a name not
// served.
func (s *Set) ReadyInstance(ctx context.Context, name string, detailed bool) (found, ok bool, body any) {
	m, release, found := s.pool.Acquire(name)
	if !found {
		return false, false, nil
	}
	defer release()
	ok, body = m.Ready(ctx, detailed)
	return true, ok, body
}

// VerifyMetrics is the passthrough check of a /metrics caller, which no
// endpoint names and which carries every instance's series: the key is put
// to every instance at once, each against its own Dagu only, and is
// verified when every instance accepts it, as a token must be of every
// instance. A key some accept and others do not is
// reqctx.TrustSomeInstances (a 403); one none accepts has the verdict of
// the instance named default, else of the first. The caller is named as
// the first instance in that order that accepted the key names it.
func (s *Set) VerifyMetrics(ctx context.Context, credential, clientAddr string) (reqctx.Trust, string) {
	names := s.pool.Names()
	if i := slices.Index(names, instances.DefaultName); i > 0 {
		names = append(append([]string{instances.DefaultName}, names[:i]...), names[i+1:]...)
	}
	trusts, callers := make([]reqctx.Trust, len(names)), make([]string, len(names))
	var wg sync.WaitGroup
	for i, name := range names {
		wg.Go(func() {
			trusts[i], callers[i] = reqctx.TrustUnchecked, "unverified"
			if ep, release, ok := s.Endpoint(name); ok {
				defer release()
				if ep.Verify != nil {
					trusts[i], callers[i] = ep.Verify(ctx, credential, clientAddr)
				}
			}
		})
	}
	wg.Wait()
	return everyInstance(trusts, callers)
}

// everyInstance folds the instances' verdicts on one key (the instance
// named default first) into VerifyMetrics's.
func everyInstance(trusts []reqctx.Trust, callers []string) (reqctx.Trust, string) {
	accepted := slices.Index(trusts, reqctx.TrustVerified)
	switch {
	case len(trusts) == 0:
		return reqctx.TrustUnchecked, "unverified"
	case accepted < 0:
		return trusts[0], callers[0]
	case slices.ContainsFunc(trusts, func(t reqctx.Trust) bool { return t != reqctx.TrustVerified }):
		return reqctx.TrustSomeInstances, callers[accepted]
	}
	return reqctx.TrustVerified, callers[0]
}

// Close retires every instance; each closes once its last request is done.
func (s *Set) Close() { s.pool.Close() }
