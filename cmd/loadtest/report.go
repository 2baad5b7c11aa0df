// SPDX-License-Identifier: Apache-2.0

package main

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// report prints a run's measurements.
func report(w io.Writer, cfg config, res *result) {
	mode, endpoint := "MCP", cfg.url
	if cfg.direct != "" {
		mode, endpoint = "direct REST", cfg.direct
	}
	fmt.Fprintf(w, "mode %s %s  clients %d  duration %s  mix %s\n", mode, endpoint, cfg.clients, cfg.duration, strings.Join(cfg.mix, ","))
	fmt.Fprintf(w, "calls %d in %s = %.1f calls/s  errors %d\n", res.calls, res.elapsed.Round(time.Millisecond), perSecond(res.calls, res.elapsed), res.errors)
	fmt.Fprintf(w, "latency p50 %s  p99 %s  max %s\n", ms(res.total.quantile(0.50)), ms(res.total.quantile(0.99)), ms(res.total.max))
	for _, name := range cfg.mix {
		t := res.targets[name]
		if t == nil {
			continue
		}
		fmt.Fprintf(w, "  %-9s calls %-8d errors %-5d p50 %-9s p99 %s\n", name, t.calls, t.errors, ms(t.latency.quantile(0.50)), ms(t.latency.quantile(0.99)))
	}
	for _, s := range res.samples {
		fmt.Fprintf(w, "  error sample: %s\n", s)
	}
	if cfg.pid > 0 {
		reportProcess(w, cfg.pid, res)
	}
}

// reportProcess prints the gateway's CPU use and peak memory.
func reportProcess(w io.Writer, pid int, res *result) {
	if res.cpuErr != nil {
		fmt.Fprintf(w, "CPU of pid %d: unavailable (%v)\n", pid, res.cpuErr)
	} else {
		fmt.Fprintf(w, "CPU of pid %d: %.2fs = %.1f%% of one core, %s per call\n", pid, res.cpu.Seconds(),
			100*res.cpu.Seconds()/max(res.elapsed.Seconds(), 1e-9), ms(perCall(res.cpu, res.calls)))
	}
	switch {
	case res.rssErr != nil:
		fmt.Fprintf(w, "peak RSS of pid %d: unavailable (%v)\n", pid, res.rssErr)
	default:
		fmt.Fprintf(w, "peak RSS of pid %d (VmHWM): %.1f MiB\n", pid, float64(res.rss)/(1<<20))
	}
}

// perCall is d shared out over n calls.
func perCall(d time.Duration, n int64) time.Duration {
	if n <= 0 {
		return 0
	}
	return d / time.Duration(n)
}

// perSecond is n per second of d.
func perSecond(n int64, d time.Duration) float64 {
	if d <= 0 {
		return 0
	}
	return float64(n) / d.Seconds()
}

// ms writes a latency in milliseconds with three decimals.
func ms(d time.Duration) string {
	return fmt.Sprintf("%.3fms", float64(d)/float64(time.Millisecond))
}
