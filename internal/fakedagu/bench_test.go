// SPDX-License-Identifier: Apache-2.0

package fakedagu

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

func BenchmarkBigLogWindows(b *testing.B) {
	file := bigLogStdout()
	for _, bc := range []struct {
		name string
		req  windowRequest
	}{
		{"tail1000", windowRequest{Tail: 1000}},
		{"default", windowRequest{}},
		{"offset19000", windowRequest{Offset: 19000, Limit: 500}},
		{"tail10000", windowRequest{Tail: 10000}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				_ = file.logBody(bc.req)
			}
		})
	}
}

func BenchmarkStepLogRequest(b *testing.B) {
	s := New(Options{})
	for b.Loop() {
		w := httptest.NewRecorder()
		s.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/api/v1/dag-runs/big_log_job/0356UUo2lMk0yUwBDR9c0n/steps/spew/log?stream=stdout&tail=1000", nil))
		if w.Code != http.StatusOK {
			b.Fatal(w.Code)
		}
	}
}

func BenchmarkBigLogDownload(b *testing.B) {
	s := New(Options{})
	for b.Loop() {
		w := httptest.NewRecorder()
		s.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/api/v1/dag-runs/big_log_job/0356UUo2lMk0yUwBDR9c0n/steps/spew/log/download", nil))
	}
}

func BenchmarkNew(b *testing.B) {
	for b.Loop() {
		_ = New(Options{})
	}
}

func BenchmarkNewRebased(b *testing.B) {
	rebase := time.Date(2031, 1, 1, 0, 0, 0, 0, time.UTC)
	for b.Loop() {
		_ = New(Options{Rebase: rebase})
	}
}
