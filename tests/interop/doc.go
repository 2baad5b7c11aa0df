// SPDX-License-Identifier: Apache-2.0

// Package interop holds the Go side of the interoperability tests: the
// go-sdk client (the version go.mod pins) against the built gateway in
// both MCP protocol eras, 2026-07-28 and 2025-11-25, reading every target
// family and one resource per family of a recording-backed demo Dagu
// (gosdk_test.go). The JavaScript clients of the same tests are this
// directory's *.test.mjs, which run.sh runs with it.
//
// The test is behind the build tag interop, outside `go test ./...`:
//
//	go test -tags interop -v ./tests/interop/
//
// It builds ./cmd/gateway, or takes INTEROP_GATEWAY_BIN.
package interop
