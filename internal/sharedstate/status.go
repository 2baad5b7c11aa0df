// SPDX-License-Identifier: Apache-2.0

package sharedstate

import (
	"slices"
	"strings"
	"time"
)

// Status is what the shared state is doing, for /readyz's detail: read
// from the Store's own record of its operations, so it asks no server.
// It holds no secret: the URL's password is replaced by xxxxx.
type Status struct {
	// URL is the configured URL without its password.
	URL string `json:"url"`
	// Topology is standalone, cluster or sentinel.
	Topology Topology `json:"topology"`
	// Up is true while every node in use answers; false while some or all
	// reads go on without sharing.
	Up bool `json:"up"`
	// Nodes are the nodes in use: the server, the master the sentinels
	// named, or each master of a cluster that served an operation lately,
	// by address. Empty before the first connection.
	Nodes []NodeStatus `json:"nodes"`
	// LastHealthy is when the shared state last answered while every
	// node in use answered (RFC 3339); empty before the first answer.
	LastHealthy string `json:"lastHealthy,omitempty"`
	// UnavailableSince is when the outage in progress began; empty while
	// up.
	UnavailableSince string `json:"unavailableSince,omitempty"`
}

// NodeStatus is one node in use.
type NodeStatus struct {
	// Address is host:port as the gateway reached it.
	Address string `json:"address"`
	// Role is "server" (one Redis) or "master" (Sentinel, cluster).
	Role string `json:"role"`
	// Up is false while its operations fall back.
	Up bool `json:"up"`
}

// Status reports the shared state; a nil store reports nothing (ok false).
func (s *Store) Status() (st Status, ok bool) {
	if s == nil {
		return Status{}, false
	}
	nodes, lastHealthy, since := s.health.snapshot()
	role := "master"
	if s.conn.topology == Standalone {
		role = "server"
	}
	st = Status{URL: s.conn.display, Topology: s.conn.topology, Up: since.IsZero(), Nodes: []NodeStatus{},
		LastHealthy: timestamp(lastHealthy), UnavailableSince: timestamp(since)}
	for _, n := range nodes {
		st.Nodes = append(st.Nodes, NodeStatus{Address: n.node, Role: role, Up: n.up})
	}
	slices.SortFunc(st.Nodes, func(a, b NodeStatus) int { return strings.Compare(a.Address, b.Address) })
	return st, true
}

// timestamp is t in RFC 3339 (UTC, milliseconds), "" for the zero time.
func timestamp(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format("2006-01-02T15:04:05.000Z07:00")
}
