// SPDX-License-Identifier: Apache-2.0

package main

import (
	"runtime"
	"runtime/debug"
	"testing"

	"github.com/bytedance/gopkg/util/gctuner"
)

// TestGCPolicyLeavesAnOperatorsChoiceAlone: GOGC or a zero floor keep Go's
// own policy.
func TestGCPolicyLeavesAnOperatorsChoiceAlone(t *testing.T) {
	t.Parallel()
	env := map[string]string{"GOGC": "50"}
	if applyGCPolicy(24<<20, func(k string) string { return env[k] }) {
		t.Error("the policy was applied although GOGC is set")
	}
	if applyGCPolicy(0, func(string) string { return "" }) {
		t.Error("the policy was applied with a zero floor")
	}
}

// TestGCPolicyRaisesThePercentForASmallHeap: with a live heap far below the
// floor the collector waits for the heap to grow (up to 6x), and it comes
// back to Go's default when the floor is taken away. Not parallel: it
// changes the process's collector.
func TestGCPolicyRaisesThePercentForASmallHeap(t *testing.T) {
	t.Cleanup(func() {
		gctuner.Tuning(0)
		debug.SetGCPercent(100)
	})
	if !applyGCPolicy(1<<30, func(string) string { return "" }) {
		t.Fatal("the policy was not applied")
	}
	runtime.GC()
	runtime.GC()
	if got := gctuner.GetGCPercent(); got != gcMaxPercent {
		t.Errorf("GC percent with a live heap far below the floor = %d, want %d", got, gcMaxPercent)
	}
	if !applyGCPolicy(1, func(string) string { return "" }) {
		t.Fatal("the policy was not applied")
	}
	runtime.GC()
	runtime.GC()
	if got := gctuner.GetGCPercent(); got != 100 {
		t.Errorf("GC percent with a live heap above the floor = %d, want 100", got)
	}
}
