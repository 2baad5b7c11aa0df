// SPDX-License-Identifier: Apache-2.0

package workbook

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
)

// benchBomb profiles a bomb workbook `parallel` times at once per
// iteration under the default configuration and reports, beside the time,
// the peak live heap, the size of one JSON answer (0 when refused) and the
// share of reads refused.
func benchBomb(b *testing.B, data []byte, parallel int) {
	path := writeBomb(b, "bomb.xlsx", data)
	p, err := New(Config{})
	if err != nil {
		b.Fatal(err)
	}
	var answer, refused, reads int
	var mu sync.Mutex
	sampler := startHeapSampler()
	b.ResetTimer()
	for b.Loop() {
		var wg sync.WaitGroup
		for range parallel {
			wg.Go(func() {
				wb, err := p.Profile(context.Background(), path, "")
				mu.Lock()
				defer mu.Unlock()
				reads++
				if err != nil {
					if _, ok := AsError(err); !ok {
						b.Errorf("error %v is not an *Error", err)
					}
					refused++
					return
				}
				raw, _ := json.Marshal(wb)
				answer = max(answer, len(raw))
			})
		}
		wg.Wait()
	}
	b.StopTimer()
	b.ReportMetric(float64(sampler.finish())/(1<<20), "peak-heap-MiB")
	b.ReportMetric(float64(answer)/(1<<10), "answer-KiB")
	b.ReportMetric(float64(refused)/float64(reads), "refused/op")
}

// BenchmarkBombLongStrings: 250 shared strings of 1 MiB (issue 11, row 1).
func BenchmarkBombLongStrings(b *testing.B) {
	benchBomb(b, longStringsBomb(b, 250, 1<<20), 1)
}

// BenchmarkBombLongStringsBatch4: the same file read by four calls at once,
// as one JSON-RPC batch does (issue 11, row 2).
func BenchmarkBombLongStringsBatch4(b *testing.B) {
	benchBomb(b, longStringsBomb(b, 250, 1<<20), 4)
}

// BenchmarkBombManyStrings: 14 million one-character shared strings
// (issue 11, row 3).
func BenchmarkBombManyStrings(b *testing.B) {
	benchBomb(b, manyStringsBomb(b, 14_000_000), 1)
}
