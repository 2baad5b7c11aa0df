// SPDX-License-Identifier: Apache-2.0

package main

import (
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"time"
)

// measure runs attack while sampling the process's resident memory every
// 100 ms, and reports it with the attack's summary.
func measure(pid int, attack func() string) string {
	before := procStatusKB(pid, "VmHWM")
	var peak atomic.Int64
	stop := make(chan struct{})
	go func() {
		for {
			select {
			case <-stop:
				return
			case <-time.After(100 * time.Millisecond):
				peak.Store(max(peak.Load(), procStatusKB(pid, "VmRSS")))
			}
		}
	}()
	summary := attack()
	close(stop)
	return fmt.Sprintf("%s\nVmHWM before %d MiB, after %d MiB; peak VmRSS sampled %d MiB; VmRSS now %d MiB",
		summary, before>>10, procStatusKB(pid, "VmHWM")>>10, peak.Load()>>10, procStatusKB(pid, "VmRSS")>>10)
}

// procStatusKB reads a kB field of /proc/<pid>/status (0 when it cannot).
func procStatusKB(pid int, field string) int64 {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if v, ok := strings.CutPrefix(line, field+":"); ok {
			var kb int64
			_, _ = fmt.Sscanf(strings.TrimSpace(v), "%d", &kb)
			return kb
		}
	}
	return 0
}
