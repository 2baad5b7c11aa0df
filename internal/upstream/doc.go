// SPDX-License-Identifier: Apache-2.0

// Package upstream implements the read tool's Upstream port over Dagu's
// REST API: it decides which REST calls answer each read (as few as the
// read allows), runs them through package restclient, turns the answers
// into the contract's models with package mapping. It caches nothing
// itself: what a port answers whole (DAG specs, the name list) is cached
// around it by portcache.Layer, and the REST parts several reads share
// (parts of final runs, identical list reads, latest-run hints, the key's
// role) are kept by package readcache's Runs, Lists, LatestHints and Roles,
// which the call plans ask.
//
// ports.go is the package's public face: one method per read, each
// reporting failures as *model.Failure values that name the input at fault
// (translated once, in errors.go). The Dagu release dialects and the
// server's detected capabilities live here, so the read tool never learns
// which Dagu answered.
package upstream
