// SPDX-License-Identifier: Apache-2.0

package main

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestReport(t *testing.T) {
	var h histogram
	for range 10 {
		h.add(2 * time.Millisecond)
	}
	res := &result{
		elapsed: 2 * time.Second, total: h, calls: 12, errors: 2,
		targets: map[string]*targetStats{"dags": {latency: h, calls: 12, errors: 2}},
		samples: []string{"dags: HTTP 500"},
		cpu:     600 * time.Millisecond, rss: 40 << 20,
	}
	tests := []struct {
		name string
		cfg  config
		res  func() *result
		want []string
		not  []string
	}{
		{"mcp with a process", config{url: "http://127.0.0.1:1/mcp", clients: 2, duration: 2 * time.Second, mix: []string{"dags"}, pid: 7},
			func() *result { return res }, []string{
				"mode MCP http://127.0.0.1:1/mcp", "calls 12 in 2s = 6.0 calls/s  errors 2", "p50 2.0",
				"  dags ", "error sample: dags: HTTP 500", "CPU of pid 7: 0.60s = 30.0% of one core, 50.000ms per call",
				"peak RSS of pid 7 (VmHWM): 40.0 MiB",
			}, nil},
		{"direct without a process", config{direct: "http://127.0.0.1:2", clients: 1, duration: time.Second, mix: []string{"dags"}},
			func() *result { return res }, []string{"mode direct REST http://127.0.0.1:2"}, []string{"CPU of", "peak RSS"}},
		{"unreadable process", config{url: "http://127.0.0.1:1/mcp", clients: 1, duration: time.Second, mix: []string{"dags"}, pid: 7},
			func() *result {
				r := *res
				r.cpuErr, r.rssErr = errors.New("gone"), errors.New("gone")
				return &r
			}, []string{"CPU of pid 7: unavailable (gone)", "peak RSS of pid 7: unavailable (gone)"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			report(&b, tt.cfg, tt.res())
			out := b.String()
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("report lacks %q:\n%s", w, out)
				}
			}
			for _, w := range tt.not {
				if strings.Contains(out, w) {
					t.Errorf("report has %q:\n%s", w, out)
				}
			}
		})
	}
}
