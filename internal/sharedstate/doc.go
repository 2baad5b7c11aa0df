// SPDX-License-Identifier: Apache-2.0

// Package sharedstate is the optional state that gateway replicas share
// through Redis (or Valkey): a second-level cache, a cluster-wide rate
// limit, a lease-based concurrency budget and a lock that coalesces
// identical reads across replicas. Open reads the Redis's topology from
// its URL: one server (redis://), a Redis Cluster (redis+cluster://) or a
// master watched by Sentinel (redis+sentinel://), each served by
// go-redis's own client for it.
//
// Redis is never a single point of failure. Every operation is bounded by
// Options.Timeout; an error, a slow answer or an answer that does not
// decode comes back as ErrUnavailable (or a cache miss), and the caller
// falls back to what it does without shared state: its local caches, its
// per-replica limits, a direct read. After a failure the Store stops
// asking that shard (the one server or master, or the cluster master of
// the failed key) for a short, growing pause (at most MaxPause), so a dead
// server costs the callers nothing; the first operation after the pause
// tries again, which is how sharing resumes without a restart, after a
// Sentinel promotion or a cluster failover too. Status, the metrics and
// one log line per outage say what is in use and whether it answers.
//
// Every key carries a Redis Cluster hash tag (keys.go): whatever one
// operation touches is in one slot.
//
// Nothing secret is stored: cache keys carry the credential fingerprint
// the local caches use (never a credential) and a hash of the rest of the
// local key; rate-limit keys carry a hash of the caller's name. Values are
// bounded in size (Options.MaxValueBytes), compressed when that saves at
// least an eighth, and framed with a checksum, so a value another program
// wrote under our keys reads as a miss.
package sharedstate
