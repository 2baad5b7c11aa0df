// SPDX-License-Identifier: Apache-2.0

// Package gwproc builds the gateway binary and runs it as a child process
// for the suites that test a built gateway (tests/hostile,
// tests/instances): start on a free loopback port, wait for /healthz, keep
// the first MiB of its log, stop it, read its resident memory from /proc.
// It has no build tag so that every tagged suite can import it; only test
// files import it, and internal/archtest keeps it out of the binary.
package gwproc
