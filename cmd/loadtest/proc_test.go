// SPDX-License-Identifier: Apache-2.0

package main

import (
	"os"
	"strings"
	"testing"
	"time"
)

func TestStatusField(t *testing.T) {
	const status = "Name:\tgateway\nVmPeak:\t  900 kB\nVmHWM:\t   51200 kB\nVmRSS:\t   40000 kB\n"
	tests := []struct {
		name, text, field string
		want              int64
		wantErr           bool
	}{
		{"peak", status, "VmHWM", 51200 << 10, false},
		{"current", status, "VmRSS", 40000 << 10, false},
		{"missing", status, "VmSwap", 0, true},
		{"not kB", "VmHWM:\t12 MB\n", "VmHWM", 0, true},
		{"not a number", "VmHWM:\tx kB\n", "VmHWM", 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := statusField(strings.NewReader(tt.text), tt.field)
			if (err != nil) != tt.wantErr || got != tt.want {
				t.Fatalf("statusField = %d, %v; want %d, error %v", got, err, tt.want, tt.wantErr)
			}
		})
	}
}

func TestPeakRSSOfThisProcess(t *testing.T) {
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("no /proc on this system")
	}
	if rss, err := peakRSS(os.Getpid()); err != nil || rss <= 0 {
		t.Fatalf("peakRSS = %d, %v", rss, err)
	}
}

func TestStatCPU(t *testing.T) {
	tests := []struct {
		name, line string
		want       time.Duration
		wantErr    bool
	}{
		{"plain", "42 (gateway) S 1 42 42 0 -1 4194560 100 0 0 0 250 50 0 0 20 0 9 0 100 1000 200", 3 * time.Second, false},
		{"spaces and parentheses in the name", "42 (a (b) c) R 1 42 42 0 -1 0 0 0 0 0 7 3 0 0", 100 * time.Millisecond, false},
		{"short", "42 (x) S 1 2", 0, true},
		{"no name", "garbage", 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := statCPU(tt.line)
			if (err != nil) != tt.wantErr || got != tt.want {
				t.Fatalf("statCPU = %s, %v; want %s, error %v", got, err, tt.want, tt.wantErr)
			}
		})
	}
}

func TestCPUTimeOfThisProcess(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc on this system")
	}
	if _, err := cpuTime(os.Getpid()); err != nil {
		t.Fatal(err)
	}
}
