// SPDX-License-Identifier: Apache-2.0

package main

import (
	"testing"
	"time"
)

func TestHistogramQuantiles(t *testing.T) {
	var a, b histogram
	for i := 1; i <= 1000; i++ {
		h := &a
		if i%2 == 0 {
			h = &b
		}
		h.add(time.Duration(i) * time.Millisecond)
	}
	a.merge(&b)
	tests := []struct {
		q    float64
		want time.Duration
	}{{0.5, 500 * time.Millisecond}, {0.99, 990 * time.Millisecond}, {1, 1000 * time.Millisecond}, {0, time.Millisecond}}
	for _, tt := range tests {
		got := a.quantile(tt.q)
		if got < tt.want || float64(got) > float64(tt.want)*histGrowth {
			t.Errorf("quantile(%v) = %s, want %s within %.0f%%", tt.q, got, tt.want, (histGrowth-1)*100)
		}
	}
	if a.n != 1000 || a.max != time.Second {
		t.Errorf("n %d max %s", a.n, a.max)
	}
}

func TestHistogramEdges(t *testing.T) {
	var h histogram
	if h.quantile(0.5) != 0 {
		t.Error("an empty histogram has a median")
	}
	h.add(0)
	h.add(time.Hour) // past the last bucket: counted there, max exact
	if got := h.quantile(1); got != time.Hour {
		t.Errorf("quantile(1) = %s, want the maximum", got)
	}
	if got := h.quantile(0.5); got > 2*histMin {
		t.Errorf("quantile(0.5) = %s, want the first bucket", got)
	}
}
