// SPDX-License-Identifier: Apache-2.0

package main

import (
	"fmt"
	"io"
	"math"
	"strings"
)

// reportCompare prints compare mode's summary: for every endpoint beside
// the baseline, its throughput and each target's p50 and p99 as a ratio to
// the baseline's in the same round, as the median over the rounds with
// the range in brackets; then the absolute medians, errors and, where a
// process ID was given, CPU per call and peak RSS.
func reportCompare(w io.Writer, cfg config, cmp *comparison) {
	eps := cmp.endpoints
	base := eps[len(eps)-1]
	fmt.Fprintf(w, "compare  clients %d  duration %s  rounds %d  mix %s\n", cfg.clients, cfg.duration, cfg.rounds, strings.Join(cfg.mix, ","))
	for _, e := range eps {
		fmt.Fprintf(w, "  %-9s %s\n", e.label, e.url)
	}
	fmt.Fprintf(w, "ratios to %s in the same round: median [lowest-highest] of %d rounds (latency below 1 and throughput above 1: faster than %s)\n",
		base.label, cfg.rounds, base.label)
	for i, e := range eps[:len(eps)-1] {
		fmt.Fprintf(w, "  %-9s throughput %s\n", e.label, formatSpread(spreadOf(cmp.ratioPerRound(i, throughput))))
		for _, name := range cfg.mix {
			fmt.Fprintf(w, "  %-9s %-16s p50 %s  p99 %s\n", e.label, name,
				formatSpread(spreadOf(cmp.ratioPerRound(i, p50Of(name)))),
				formatSpread(spreadOf(cmp.ratioPerRound(i, quantileOf(name, 0.99)))))
		}
	}
	fmt.Fprintln(w, "medians of the rounds:")
	for i, e := range eps {
		fmt.Fprintf(w, "  %-9s %8.1f calls/s  errors %d", e.label, spreadOf(cmp.perRound(i, throughput)).median, cmp.errors(i))
		for _, name := range cfg.mix {
			fmt.Fprintf(w, "  %s p50 %s", name, msFloat(spreadOf(cmp.perRound(i, p50Of(name))).median))
		}
		fmt.Fprintln(w)
		if e.pid > 0 {
			cmp.reportProcess(w, i, e)
		}
	}
	for i, e := range eps {
		for _, s := range cmp.samples(i) {
			fmt.Fprintf(w, "  %s error sample: %s\n", e.label, s)
		}
	}
}

// reportProcess prints an endpoint's CPU per call (median over rounds) and
// its peak RSS (the highest VmHWM read after a round).
func (c *comparison) reportProcess(w io.Writer, i int, e endpoint) {
	cpu := spreadOf(c.perRound(i, func(res *result) float64 {
		if res.cpuErr != nil || res.calls == 0 {
			return math.NaN()
		}
		return float64(res.cpu) / float64(res.calls) / 1e6
	}))
	var peak int64
	var readErr error
	for _, row := range c.results {
		if row[i].rssErr != nil {
			readErr = row[i].rssErr
			continue
		}
		peak = max(peak, row[i].rss)
	}
	fmt.Fprintf(w, "  %-9s pid %d: CPU per call %s [%s-%s]", e.label, e.pid, msFloat(cpu.median), msFloat(cpu.low), msFloat(cpu.high))
	if readErr != nil && peak == 0 {
		fmt.Fprintf(w, ", peak RSS unavailable (%v)\n", readErr)
		return
	}
	fmt.Fprintf(w, ", peak RSS (VmHWM) %.1f MiB\n", float64(peak)/(1<<20))
}

// errors is endpoint i's error count over all rounds.
func (c *comparison) errors(i int) int64 {
	var n int64
	for _, row := range c.results {
		n += row[i].errors
	}
	return n
}

// samples is endpoint i's first error messages over all rounds.
func (c *comparison) samples(i int) []string {
	var out []string
	for _, row := range c.results {
		for _, s := range row[i].samples {
			if len(out) < maxErrorSamples {
				out = append(out, s)
			}
		}
	}
	return out
}

// formatSpread writes a ratio's median and range; "n/a" when no round
// measured it.
func formatSpread(s spread) string {
	if math.IsNaN(s.median) {
		return "n/a"
	}
	return fmt.Sprintf("%.2f [%.2f-%.2f]", s.median, s.low, s.high)
}

// msFloat writes milliseconds with three decimals; "n/a" for NaN.
func msFloat(v float64) string {
	if math.IsNaN(v) {
		return "n/a"
	}
	return fmt.Sprintf("%.3fms", v)
}
