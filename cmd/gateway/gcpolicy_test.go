// SPDX-License-Identifier: Apache-2.0

package main

import (
	"context"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"

	"github.com/bytedance/gopkg/util/gctuner"

	"github.com/dagu-mcp-gateway/gateway/internal/config"
	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu/fakedagutest"
	"github.com/dagu-mcp-gateway/gateway/internal/testkit"
)

// gcPolicyLine is the start-up line about the GC policy in a command's
// JSON log, or nil.
func gcPolicyLine(t *testing.T, logs *testkit.LogBuffer) map[string]any {
	t.Helper()
	for _, l := range logs.JSONLines(t) {
		if l["msg"] == gcPolicyMessage {
			return l
		}
	}
	return nil
}

// TestStartupLogsTheGCPolicy: stdio says at start-up, at info, whether the
// GC policy is on and with which floor, or why it is off (GOGC set, or a
// zero floor). GOGC comes from the command's environment, so the test
// process's own collector is left alone by the off cases.
func TestStartupLogsTheGCPolicy(t *testing.T) {
	t.Parallel()
	_, daguURL := fakedagutest.Start(t, fakedagu.Options{APIKey: fakedagutest.APIKey})
	tests := []struct {
		name  string
		args  []string
		env   map[string]string
		check func(map[string]any) bool
	}{
		{"default floor", nil, nil, func(l map[string]any) bool {
			return l["gc_policy"] == "on" && l["gc_heap_floor"] == config.DefaultGCHeapFloor && l["reason"] == nil
		}},
		{"floor set", []string{"--gc-heap-floor", "32MiB"}, nil, func(l map[string]any) bool {
			return l["gc_policy"] == "on" && l["gc_heap_floor"] == "32MiB"
		}},
		{"GOGC set", nil, map[string]string{"GOGC": "50"}, func(l map[string]any) bool {
			return l["gc_policy"] == "off" && l["reason"] == "GOGC is set" && l["gogc"] == "50"
		}},
		{"floor 0", []string{"--gc-heap-floor", "0"}, nil, func(l map[string]any) bool {
			return l["gc_policy"] == "off" && l["reason"] == "--gc-heap-floor is 0" && l["gc_heap_floor"] == "0"
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			env := map[string]string{"DAGU_API_KEY": fakedagutest.APIKey}
			maps.Copy(env, tt.env)
			var logs testkit.LogBuffer
			args := append([]string{"stdio", "--dagu-url", daguURL, "--log-level", "info"}, tt.args...)
			code := run(context.Background(), args, environment{
				stdin: strings.NewReader(""), stdout: io.Discard, stderr: &logs, getenv: mapEnv(env),
			})
			l := gcPolicyLine(t, &logs)
			if code != 0 || l == nil || l["level"] != "INFO" || !tt.check(l) {
				t.Errorf("exit %d, GC policy line %v\n%s", code, l, logs.String())
			}
		})
	}
}

// TestDemoLogsTheGCPolicy: serve and demo log the same line (demo serves
// through serve's path).
func TestDemoLogsTheGCPolicy(t *testing.T) {
	t.Parallel()
	demo := startDemo(t, "--gc-heap-floor", "0")
	demo.stop(t)
	if l := gcPolicyLine(t, &demo.stderr); l == nil || l["gc_policy"] != "off" || l["reason"] != "--gc-heap-floor is 0" {
		t.Errorf("GC policy line %v\n%s", l, demo.stderr.String())
	}
}

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
		if got := gcPolicyApplies(tt.floor, func(k string) string { return env[k] }); got != tt.want {
			t.Errorf("%s: gcPolicyApplies = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestGCPolicyRaisesThePercentForASmallHeap: in a fresh process (the tuner
// is process-wide) a live heap far below the floor lets the collector wait
// for the heap to grow, up to the cap.
func TestGCPolicyRaisesThePercentForASmallHeap(t *testing.T) {
	t.Parallel()
	if os.Getenv("GATEWAY_GC_POLICY_CHILD") == "1" {
		applyGCPolicy(1<<30, os.Getenv)
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
		{"", fmt.Sprintf("gc-percent=%d", gcMaxPercent)},
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
