// SPDX-License-Identifier: Apache-2.0

package oidc

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/dagu-mcp-gateway/gateway/internal/promreg"
)

// metrics count the fetches of the issuer's keys, and the fetches a token
// with an unknown key ID did not start because one started less than
// the minimum refresh interval ago.
type metrics struct {
	fetches *prometheus.CounterVec
	skipped prometheus.Counter
}

func newMetrics(reg prometheus.Registerer) (*metrics, error) {
	m := &metrics{
		fetches: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "dagu_gateway_oidc_key_fetches_total",
			Help: "Fetches of the OIDC issuer's keys (discovery and JWKS) by outcome (ok, error).",
		}, []string{"outcome"}),
		skipped: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "dagu_gateway_oidc_key_fetches_skipped_total",
			Help: "Tokens with a key ID not in the issuer's key set that started no fetch, one having started less than the minimum refresh interval ago.",
		}),
	}
	if err := promreg.Own(reg, m.fetches, m.skipped); err != nil {
		return nil, err
	}
	return m, nil
}
