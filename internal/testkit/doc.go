// SPDX-License-Identifier: Apache-2.0

// Package testkit holds the few helpers that tests of several packages
// share: a clock the test moves by hand and a log buffer that concurrent
// writers and a reading test can share. Only test files (and the other
// shared test helpers, such as tests/gwproc) import it; internal/archtest
// fails when a non-test file does.
package testkit
