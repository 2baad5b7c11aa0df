// SPDX-License-Identifier: Apache-2.0

// Package readiness answers one Dagu server's part of /readyz: whether
// Dagu answers (and accepts the gateway's key), probed at most once per
// CacheTTL whatever the rate of probes, and for a trusted caller what was
// detected of the server and an outage in progress.
package readiness

import (
	"context"
	"log/slog"

	"github.com/dagu-mcp-gateway/gateway/internal/doctor"
	"github.com/dagu-mcp-gateway/gateway/internal/readtool"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient"
	"github.com/dagu-mcp-gateway/gateway/internal/upstream"
)

// Probe answers /readyz for one Dagu server. It is safe for concurrent
// use.
type Probe struct {
	client  *restclient.Client
	adapter *upstream.Adapter
	// passthrough: callers bring their own Dagu keys, so the probe only
	// checks that Dagu answers.
	passthrough bool
	cache       cache
}

// New returns the probe of the server client and adapter read; a failure's
// detail goes to log.
func New(client *restclient.Client, adapter *upstream.Adapter, passthrough bool, log *slog.Logger) *Probe {
	return &Probe{client: client, adapter: adapter, passthrough: passthrough, cache: cache{log: log}}
}

// Ready answers /readyz: Dagu must answer and accept the key. The reason
// names network, tls, auth, surface or upstream. The open answer carries
// only the status and the reason; a trusted caller (detailed) also gets
// the detected capabilities, how each target is served, and an outage in
// progress (since when calls to Dagu fail, how many, the latest route and
// outcome).
func (p *Probe) Ready(ctx context.Context, detailed bool) (bool, any) {
	probe := p.client.Probe
	if p.passthrough {
		probe = p.client.ProbeReachable
	}
	res := p.cache.probe(ctx, probe)
	body := map[string]any{"status": "ready"}
	if !res.OK {
		body = map[string]any{"status": "not ready", "reason": res.Reason}
	}
	if caps, ok := p.adapter.Capabilities(); ok && detailed {
		body["dagu"] = doctor.CapabilityReport(caps, readtool.TargetRules())
	}
	if outage, ok := p.client.Outage(); ok && detailed {
		body["outage"] = outage
	}
	return res.OK, body
}
