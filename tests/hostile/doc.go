// SPDX-License-Identifier: Apache-2.0

// Package hostile attacks a running gateway as callers without a valid
// key (and with one ordinary key) would, and checks what issue 28 says
// must hold whatever they send: peak RSS (VmHWM) under 256 MiB, at least
// 95% of a verified caller's reads succeeding during the attack, new real
// callers getting in within 5 s, fresh logins buying nothing, and token
// rotation never blocking.
//
// Each test builds ./cmd/gateway (or takes HOSTILE_GATEWAY_BIN, so an
// older build can be measured) and starts it on a loopback port in front
// of the fake Dagu served by this process, or of a real Dagu given by
// HOSTILE_DAGU_URL and HOSTILE_DAGU_KEY (see newDagu; the narrowing
// tests also need an admin's HOSTILE_DAGU_USER and HOSTILE_DAGU_PASSWORD,
// see newRealNarrowing). Every attack is
// bounded in time (attackTime) and in requests (maxAttackRequests), and
// connects over loopback only (the metadata test listens on 0.0.0.0, as
// its attack needs).
//
// The suite takes a few minutes and loads the machine, so it is behind
// the build tag hostile (and reads /proc, so Linux only), outside
// `go test ./...`:
//
//	go test -tags hostile -v ./tests/hostile/
//	make hostile
package hostile
