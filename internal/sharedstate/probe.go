// SPDX-License-Identifier: Apache-2.0

package sharedstate

import (
	"bufio"
	"context"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// ServerInfo is what Probe learned about the shared server.
type ServerInfo struct {
	// Server is "redis" or "valkey".
	Server string
	// Version is the server's version, e.g. "7.0.15" (a cluster's: one
	// node's).
	Version string
	// RoundTrip is how long the INFO command took.
	RoundTrip time.Duration
	// Topology is how the URL said the Redis is deployed.
	Topology Topology
	// Masters are the master Sentinel named or a cluster's masters, by
	// address; empty for one server.
	Masters []string
}

// maxInfoBytes bounds the INFO answer Probe looks at.
const maxInfoBytes = 64 << 10

// minProbeTimeout lets Probe connect (TLS included) even when
// Options.Timeout is short.
const minProbeTimeout = 2 * time.Second

// Probe asks the server who it is (INFO server), within Options.Timeout
// or minProbeTimeout, whichever is longer. It is for doctor and readiness
// reports; reads never need it.
func (s *Store) Probe(ctx context.Context) (ServerInfo, error) {
	if s == nil {
		return ServerInfo{}, &unavailableError{op: "probe"}
	}
	var raw string
	start := time.Now()
	err := s.runFor(ctx, "probe", "", max(s.opts.Timeout, minProbeTimeout), func(ctx context.Context) error {
		var err error
		raw, err = s.client.Info(ctx, "server").Result()
		return err
	})
	if err != nil {
		return ServerInfo{}, err
	}
	info := parseInfo(raw[:min(len(raw), maxInfoBytes)])
	info.RoundTrip = time.Since(start)
	info.Topology = s.conn.topology
	switch {
	case s.conn.topology == Sentinel:
		info.Masters = []string{s.conn.node.get()}
	case s.conn.cluster != nil:
		info.Masters = s.masters(ctx)
	}
	return info, nil
}

// maxListedMasters bounds the masters Probe lists.
const maxListedMasters = 64

// masters lists a cluster's masters as it describes itself now (CLUSTER
// SLOTS), sorted; nil when it does not answer in time.
func (s *Store) masters(ctx context.Context) []string {
	var mu sync.Mutex
	var addrs []string
	_ = s.runFor(ctx, "probe", "", max(s.opts.Timeout, minProbeTimeout), func(ctx context.Context) error {
		return s.conn.cluster.ForEachMaster(ctx, func(_ context.Context, c *redis.Client) error {
			mu.Lock()
			defer mu.Unlock()
			if len(addrs) < maxListedMasters {
				addrs = append(addrs, c.Options().Addr)
			}
			return nil
		})
	})
	mu.Lock()
	defer mu.Unlock()
	slices.Sort(addrs)
	return addrs
}

// parseInfo reads the server's name and version from an INFO answer:
// Valkey reports valkey_version (and a redis_version for compatibility).
func parseInfo(raw string) ServerInfo {
	fields := map[string]string{}
	sc := bufio.NewScanner(strings.NewReader(raw))
	for sc.Scan() {
		if k, v, ok := strings.Cut(strings.TrimSpace(sc.Text()), ":"); ok {
			fields[k] = v
		}
	}
	switch {
	case fields["valkey_version"] != "":
		return ServerInfo{Server: "valkey", Version: fields["valkey_version"]}
	case fields["redis_version"] != "":
		return ServerInfo{Server: "redis", Version: fields["redis_version"]}
	}
	return ServerInfo{Server: "unknown", Version: "unknown"}
}
