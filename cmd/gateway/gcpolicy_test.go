// SPDX-License-Identifier: Apache-2.0

package main

import (
	"context"
	"io"
	"maps"
	"strings"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/config"
	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu/fakedagutest"
	"github.com/dagu-mcp-gateway/gateway/internal/gcpolicy"
	"github.com/dagu-mcp-gateway/gateway/internal/testkit"
)

// gcPolicyLine is the start-up line about the GC policy in a command's
// JSON log, or nil.
func gcPolicyLine(t *testing.T, logs *testkit.LogBuffer) map[string]any {
	t.Helper()
	for _, l := range logs.JSONLines(t) {
		if l["msg"] == gcpolicy.Message {
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
