// SPDX-License-Identifier: Apache-2.0

package gcpolicy

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"

	"github.com/bytedance/gopkg/util/gctuner"
)

// TestGCPolicyLeavesAnOperatorsChoiceAlone: GOGC or a zero floor keep Go's
// own policy.
func TestGCPolicyLeavesAnOperatorsChoiceAlone(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name  string
		floor int64
		gogc  string
		want  bool
	}{
		{"default", 24 << 20, "", true},
		{"GOGC set", 24 << 20, "50", false},
		{"GOGC off", 24 << 20, "off", false},
		{"floor 0", 0, "", false},
	} {
		env := map[string]string{"GOGC": tt.gogc}
		if got := applies(tt.floor, func(k string) string { return env[k] }); got != tt.want {
			t.Errorf("%s: applies = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestGCPolicyRaisesThePercentForASmallHeap: in a fresh process (the tuner
// is process-wide) a live heap far below the floor lets the collector wait
// for the heap to grow, up to the cap.
func TestGCPolicyRaisesThePercentForASmallHeap(t *testing.T) {
	t.Parallel()
	if os.Getenv("GATEWAY_GC_POLICY_CHILD") == "1" {
		Apply(1<<30, os.Getenv)
		// gctuner sets the percent from a finalizer that runs after a
		// collection, on its own goroutine: collect until it has run.
		for range 100 {
			runtime.GC()
			if gctuner.GetGCPercent() != 100 {
				break
			}
			runtime.Gosched()
		}
		fmt.Printf("gc-percent=%d\n", gctuner.GetGCPercent())
		os.Exit(0)
	}
	for _, tt := range []struct {
		gogc string
		want string
	}{
		{"", fmt.Sprintf("gc-percent=%d", MaxPercent)},
		{"100", "gc-percent=100"},
	} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestGCPolicyRaisesThePercentForASmallHeap$")
		cmd.Env = append(os.Environ(), "GATEWAY_GC_POLICY_CHILD=1", "GOGC="+tt.gogc)
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), tt.want) {
			t.Errorf("GOGC=%q: %v\n%s\nwant %s", tt.gogc, err, out, tt.want)
		}
	}
}
