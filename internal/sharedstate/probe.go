// SPDX-License-Identifier: Apache-2.0

package sharedstate

import (
	"bufio"
	"context"
	"strings"
	"time"
)

// ServerInfo is what Probe learned about the shared server.
type ServerInfo struct {
	// Server is "redis" or "valkey".
	Server string
	// Version is the server's version, e.g. "7.0.15".
	Version string
	// RoundTrip is how long the INFO command took.
	RoundTrip time.Duration
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
	err := s.runFor(ctx, "probe", max(s.opts.Timeout, minProbeTimeout), func(ctx context.Context) error {
		var err error
		raw, err = s.client.Info(ctx, "server").Result()
		return err
	})
	if err != nil {
		return ServerInfo{}, err
	}
	info := parseInfo(raw[:min(len(raw), maxInfoBytes)])
	info.RoundTrip = time.Since(start)
	return info, nil
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
