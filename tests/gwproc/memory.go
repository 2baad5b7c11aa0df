// SPDX-License-Identifier: Apache-2.0

package gwproc

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
)

// PeakRSS is the process's peak resident set size (VmHWM), in bytes.
// Linux only, as it reads /proc.
func (p *Process) PeakRSS(t testing.TB) int64 {
	t.Helper()
	return p.statusBytes(t, "VmHWM")
}

// RSS is the process's resident set size (VmRSS), in bytes. Linux only.
func (p *Process) RSS(t testing.TB) int64 {
	t.Helper()
	return p.statusBytes(t, "VmRSS")
}

// statusBytes reads one kB field of /proc/<pid>/status.
func (p *Process) statusBytes(t testing.TB, field string) int64 {
	t.Helper()
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", p.Cmd.Process.Pid))
	if err != nil {
		t.Fatalf("%s: %v", field, err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if value, ok := strings.CutPrefix(sc.Text(), field+":"); ok {
			fields := strings.Fields(value)
			if len(fields) == 0 {
				break
			}
			kb, err := strconv.ParseInt(fields[0], 10, 64)
			if err != nil {
				t.Fatalf("%s %q: %v", field, value, err)
			}
			return kb << 10
		}
	}
	t.Fatalf("no %s line", field)
	return 0
}
