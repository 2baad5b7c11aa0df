// SPDX-License-Identifier: Apache-2.0

package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
)

// endpoint is one MCP server compare mode loads.
type endpoint struct {
	label string
	url   string
	token string // bearer token sent to it ("" for none)
	pid   int    // its process, for CPU time and peak RSS (0: unknown)
}

// parseEndpoint reads an -also value: label=URL, optionally followed by
// @pid.
func parseEndpoint(v string) (endpoint, error) {
	label, rest, ok := strings.Cut(v, "=")
	if !ok || strings.TrimSpace(label) == "" || rest == "" {
		return endpoint{}, fmt.Errorf("%q is not label=URL[@pid]", v)
	}
	e := endpoint{label: strings.TrimSpace(label), url: rest}
	if at := strings.LastIndexByte(rest, '@'); at >= 0 {
		pid, err := strconv.Atoi(rest[at+1:])
		if err != nil || pid <= 0 {
			return endpoint{}, fmt.Errorf("%q: %q is not a process ID", v, rest[at+1:])
		}
		e.url, e.pid = rest[:at], pid
	}
	return e, nil
}

// endpoints lists the compared endpoints: the gateway, the -also ones and
// last the baseline. The gateways share the -token.
func (c config) endpoints() []endpoint {
	out := []endpoint{{label: c.label, url: c.url, token: c.token, pid: c.pid}}
	for _, e := range c.also {
		e.token = c.token
		out = append(out, e)
	}
	return append(out, c.baseline)
}

// roundOrder is the order endpoints are loaded in round r (from 0): the
// list rotated by r, so each goes first in turn and none always follows
// the same one.
func roundOrder(n, r int) []int {
	order := make([]int, n)
	for i := range order {
		order[i] = (i + r) % n
	}
	return order
}

// comparison is what compare mode measured: results[round][endpoint], in
// the order endpoints() lists them.
type comparison struct {
	endpoints []endpoint
	results   [][]*result
}

// runCompare loads every endpoint once per round with the same clients,
// mix and arguments, rotating the order each round, and reports each run
// as it ends on progress.
func runCompare(ctx context.Context, cfg config, progress io.Writer) (*comparison, error) {
	eps := cfg.endpoints()
	cmp := &comparison{endpoints: eps, results: make([][]*result, cfg.rounds)}
	for r := range cfg.rounds {
		cmp.results[r] = make([]*result, len(eps))
		for _, i := range roundOrder(len(eps), r) {
			res, err := runLoad(ctx, cfg.on(eps[i], i == len(eps)-1))
			if err != nil {
				return nil, fmt.Errorf("round %d, %s: %w", r+1, eps[i].label, err)
			}
			cmp.results[r][i] = res
			fmt.Fprintf(progress, "round %d  %-9s %8.1f calls/s  p50 %s  errors %d\n", r+1, eps[i].label,
				perSecond(res.calls, res.elapsed), ms(res.total.quantile(0.50)), res.errors)
		}
	}
	return cmp, nil
}

// on is the run configuration for one endpoint.
func (c config) on(e endpoint, isBaseline bool) config {
	c.url, c.token, c.pid, c.onBaseline = e.url, e.token, e.pid, isBaseline
	return c
}

// spread is a per-round figure summarised over the rounds.
type spread struct {
	median, low, high float64
}

// spreadOf summarises values (one per round); NaN values (a round where
// nothing succeeded) are left out, and an empty set gives NaN.
func spreadOf(values []float64) spread {
	vs := slices.DeleteFunc(slices.Clone(values), math.IsNaN)
	if len(vs) == 0 {
		nan := math.NaN()
		return spread{nan, nan, nan}
	}
	slices.Sort(vs)
	mid := len(vs) / 2
	median := vs[mid]
	if len(vs)%2 == 0 {
		median = (vs[mid-1] + vs[mid]) / 2
	}
	return spread{median: median, low: vs[0], high: vs[len(vs)-1]}
}

// ratio is a/b, NaN when either is missing.
func ratio(a, b float64) float64 {
	if a <= 0 || b <= 0 {
		return math.NaN()
	}
	return a / b
}

// perRound applies f to endpoint i's result of every round.
func (c *comparison) perRound(i int, f func(*result) float64) []float64 {
	out := make([]float64, len(c.results))
	for r, row := range c.results {
		out[r] = f(row[i])
	}
	return out
}

// ratioPerRound is f of endpoint i divided by f of the baseline, round by
// round.
func (c *comparison) ratioPerRound(i int, f func(*result) float64) []float64 {
	base := len(c.endpoints) - 1
	out := make([]float64, len(c.results))
	for r, row := range c.results {
		out[r] = ratio(f(row[i]), f(row[base]))
	}
	return out
}

// p50Of is a target's median latency in milliseconds ("" for all calls).
func p50Of(target string) func(*result) float64 {
	return quantileOf(target, 0.50)
}

// quantileOf is a target's latency quantile in milliseconds ("" for all
// calls); NaN when the target made no successful call.
func quantileOf(target string, q float64) func(*result) float64 {
	return func(res *result) float64 {
		h := &res.total
		if target != "" {
			t := res.targets[target]
			if t == nil {
				return math.NaN()
			}
			h = &t.latency
		}
		if h.n == 0 {
			return math.NaN()
		}
		return float64(h.quantile(q)) / 1e6
	}
}

// throughput is a run's calls per second.
func throughput(res *result) float64 { return perSecond(res.calls, res.elapsed) }
