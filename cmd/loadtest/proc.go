// SPDX-License-Identifier: Apache-2.0

package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"
)

// peakRSS reads a process's peak resident set size (VmHWM) from
// /proc/<pid>/status, in bytes.
func peakRSS(pid int) (int64, error) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	defer f.Close()
	return statusField(f, "VmHWM")
}

// statusField reads a "Name:   123 kB" line of a /proc status file, in
// bytes.
func statusField(r io.Reader, name string) (int64, error) {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		key, value, ok := strings.Cut(sc.Text(), ":")
		if !ok || key != name {
			continue
		}
		fields := strings.Fields(value)
		if len(fields) != 2 || fields[1] != "kB" {
			return 0, fmt.Errorf("%s: unexpected value %q", name, value)
		}
		kb, err := strconv.ParseInt(fields[0], 10, 64)
		if err != nil {
			return 0, fmt.Errorf("%s: %w", name, err)
		}
		return kb << 10, nil
	}
	if err := sc.Err(); err != nil {
		return 0, err
	}
	return 0, fmt.Errorf("no %s line", name)
}

// userHZ is the unit of the CPU times in /proc/<pid>/stat: Linux fixes it
// at 100 per second for every architecture it exports them on.
const userHZ = 100

// cpuTime reads the CPU time (user and system, all threads) a process has
// used so far, from /proc/<pid>/stat.
func cpuTime(pid int) (time.Duration, error) {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	return statCPU(string(raw))
}

// statCPU reads utime and stime (fields 14 and 15) of a /proc stat line;
// the command name (field 2) may hold spaces, so fields are counted after
// its closing parenthesis.
func statCPU(line string) (time.Duration, error) {
	end := strings.LastIndexByte(line, ')')
	if end < 0 {
		return 0, fmt.Errorf("unexpected stat line %q", truncate(line, 80))
	}
	fields := strings.Fields(line[end+1:])
	if len(fields) < 13 {
		return 0, fmt.Errorf("short stat line %q", truncate(line, 80))
	}
	var ticks int64
	for _, f := range fields[11:13] {
		n, err := strconv.ParseInt(f, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("stat line: %w", err)
		}
		ticks += n
	}
	return time.Duration(ticks) * time.Second / userHZ, nil
}
