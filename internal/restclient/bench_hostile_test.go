// SPDX-License-Identifier: Apache-2.0

package restclient

import (
	"bufio"
	"context"
	"net/http"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// hostileAnswerBytes is the size of each hostile answer: 100 MB, as in
// issue 20's measurement.
const hostileAnswerBytes = 100_000_000

// serveHostileRun answers every request with a 200 JSON body of
// hostileAnswerBytes (a run whose log field never ends), streamed from one
// 64 KiB buffer so the server itself holds almost nothing. declared sends
// the length in Content-Length; otherwise the body is chunked.
func serveHostileRun(declared bool) http.HandlerFunc {
	chunk := []byte(strings.Repeat("x", 64<<10))
	head := []byte(`{"dagRunDetails":{"name":"`)
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if declared {
			w.Header().Set("Content-Length", strconv.Itoa(hostileAnswerBytes))
		}
		w.WriteHeader(http.StatusOK)
		if _, err := w.Write(head); err != nil {
			return
		}
		for sent := len(head); sent < hostileAnswerBytes; sent += len(chunk) {
			n := min(len(chunk), hostileAnswerBytes-sent)
			if _, err := w.Write(chunk[:n]); err != nil {
				return
			}
		}
	}
}

// BenchmarkHostileAnswersPeakRSS reads a run from a hostile Dagu that
// answers every call with 100 MB, 32 calls at once, with the gateway's
// default limits (--max-response-bytes 32MiB, --upstream-body-budget
// 32MiB, --upstream-concurrency 32). It reports the process's peak RSS
// (VmHWM, reset first through /proc/self/clear_refs) while those reads
// run. The hostile server runs in the same process but streams from one
// buffer. Every read must fail (too_large or busy).
//
//	go test -run '^$' -bench HostileAnswersPeakRSS -benchtime 3x ./internal/restclient/
func BenchmarkHostileAnswersPeakRSS(b *testing.B) {
	for _, declared := range []bool{true, false} {
		name := map[bool]string{false: "chunked", true: "content-length"}[declared]
		b.Run(name, func(b *testing.B) {
			srv, _ := newServer(b, serveHostileRun(declared))
			c, err := New(Config{BaseURL: srv.URL, Key: StaticKey("dagu_bench"), Retries: -1})
			if err != nil {
				b.Fatal(err)
			}
			runtime.GC()
			if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
				b.Skipf("cannot reset the peak RSS (Linux only): %v", err)
			}
			for b.Loop() {
				readHostileRuns(b, c, 32)
			}
			b.ReportMetric(float64(peakRSS(b))/(1<<20), "peak-RSS-MiB")
		})
	}
}

// readHostileRuns reads a run n times at once; every read must fail.
func readHostileRuns(b *testing.B, c *Client, n int) {
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = c.GetRun(context.Background(), RunRef{Name: "hostile", RunID: "r" + strconv.Itoa(i)})
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if k := kindOf(err); k != "too_large" && k != "busy" {
			b.Fatalf("a hostile answer was not refused: %v", err)
		}
	}
}

// peakRSS reads this process's VmHWM in bytes.
func peakRSS(b *testing.B) int64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			if err != nil {
				b.Fatal(err)
			}
			return kb << 10
		}
	}
	b.Fatal("no VmHWM in /proc/self/status")
	return 0
}
