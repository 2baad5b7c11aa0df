// SPDX-License-Identifier: Apache-2.0

// Package promreg registers the gateway's Prometheus collectors: the one
// place that knows how a registry is shared. It is a leaf every package
// with metrics may import.
package promreg

import (
	"errors"

	"github.com/prometheus/client_golang/prometheus"
)

// Shared registers c with reg, or returns the collector of the same type
// already registered under the same name and labels, so that two users of
// one registry (the REST clients, tools or MCP servers of a gateway's
// instances) count into the same series. Any other registration error is
// returned with c. A nil reg registers nothing.
func Shared[C prometheus.Collector](reg prometheus.Registerer, c C) (C, error) {
	if reg == nil {
		return c, nil
	}
	err := reg.Register(c)
	var already prometheus.AlreadyRegisteredError
	if errors.As(err, &already) {
		if existing, ok := already.ExistingCollector.(C); ok {
			return existing, nil
		}
	}
	return c, err
}

// Own registers collectors that have one owner per registry: a second
// registration under the same name is an error, the first one returned. A
// nil reg registers nothing.
func Own(reg prometheus.Registerer, collectors ...prometheus.Collector) error {
	if reg == nil {
		return nil
	}
	for _, c := range collectors {
		if err := reg.Register(c); err != nil {
			return err
		}
	}
	return nil
}
