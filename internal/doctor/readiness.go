// SPDX-License-Identifier: Apache-2.0

package doctor

import (
	"context"
	"log/slog"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient"
	"github.com/dagu-mcp-gateway/gateway/internal/sharedstate"
	"github.com/dagu-mcp-gateway/gateway/internal/upstream"
)

// Readiness answers one Dagu server's part of /readyz: whether Dagu
// answers (and accepts the gateway's key), probed at most once per
// readyCacheTTL whatever the rate of probes, and for a trusted caller what
// was detected of the server (CapabilityReport) and an outage in progress.
// It is safe for concurrent use.
type Readiness struct {
	client  *restclient.Client
	adapter *upstream.Adapter
	// passthrough: callers bring their own Dagu keys, so the probe only
	// checks that Dagu answers.
	passthrough bool
	// targets are the read targets with their support rules
	// (readtool.TargetRules).
	targets []model.TargetRule
	// shared is the replicas' shared state (nil: none), whose status a
	// trusted caller sees.
	shared *sharedstate.Store
	cache  readyCache
}

// NewReadiness returns the readiness of the server client and adapter
// read, with the shared state they use (nil: none); a failure's detail
// goes to log.
func NewReadiness(client *restclient.Client, adapter *upstream.Adapter, shared *sharedstate.Store, passthrough bool, targets []model.TargetRule, log *slog.Logger) *Readiness {
	return &Readiness{client: client, adapter: adapter, shared: shared, passthrough: passthrough, targets: targets, cache: readyCache{log: log}}
}

// Ready answers /readyz: Dagu must answer and accept the key. The reason
// names network, tls, auth, surface or upstream. The open answer carries
// only the status and the reason; a trusted caller (detailed) also gets
// the detected capabilities, how each target is served, an outage in
// progress (since when calls to Dagu fail, how many, the latest route and
// outcome), and the shared state's status (sharedstate.Status: the nodes
// in use, when sharing was last healthy). The shared state never makes a
// gateway unready: reads go on without it.
func (p *Readiness) Ready(ctx context.Context, detailed bool) (bool, any) {
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
		body["dagu"] = CapabilityReport(caps, p.targets)
	}
	if outage, ok := p.client.Outage(); ok && detailed {
		body["outage"] = outage
	}
	if shared, ok := p.shared.Status(); ok && detailed {
		body["sharedState"] = shared
	}
	return res.OK, body
}
