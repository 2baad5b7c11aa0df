// SPDX-License-Identifier: Apache-2.0

// Package restclient is the gateway's only way to Dagu: a read-only REST
// client generated from api/openapi.yaml (package gen) and run over a
// guarded transport.
//
// Every request goes through one path (doer.go): the transport guard allows
// only GETs of the route templates in routes.go, with their query keys, on
// the configured server; the API key is attached per request (KeySource, so
// a rotated key file is picked up); resty executes the request with a
// per-call deadline, retrying connect failures and 429/502/503/504 with
// backoff or Retry-After but never waiting past the deadline; bodies are
// capped. Answers are decoded by decodeJSON (decode.go) as the generated
// parsers would decide, read once into a pooled buffer. Every failure is an *Error that states facts (the route, the HTTP
// status, Dagu's error code, a bounded excerpt of the body, or why no
// answer arrived: refused, busy, timeout, TLS, ...) and no contract
// meaning: package upstream maps them to model.Failure in one table.
//
// The typed helpers on Client (calls_*.go) return generated types for
// package upstream, which turns them into the read tool's answers with
// package mapping; generated types never leave restclient, mapping and
// upstream. This package knows nothing of the dagu_read contract. Probe
// serves readiness checks and DetectCapabilities tells newer Dagu servers
// (foreach routes, event logs) from older ones.
package restclient
