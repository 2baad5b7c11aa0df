// SPDX-License-Identifier: Apache-2.0

package restclient

import (
	"compress/gzip"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/restclient/gen"
)

// BenchmarkAnswerEncoding reads typical answers from a local server that,
// like Dagu, gzips whatever it may, once asking for gzip and once for
// identity: the CPU both ends spend on compression, in one process.
func BenchmarkAnswerEncoding(b *testing.B) {
	fx := loadFixtures(b)
	details := fx["037-dag-runs-failing-job-0356UUn8VwcWFuh5L8qwbp.json"].body()
	dags := fx["003-dags.json"].body()
	window := logWindowAnswer(b, fx["055-dag-runs-big-log-job-0356UUo2lMk0yUwBDR9c0n-steps-spew-log.json"].body(), 200)
	srv, _ := newServer(b, func(w http.ResponseWriter, r *http.Request) {
		switch {
		case strings.HasSuffix(r.URL.Path, "/log"):
			writeMaybeGzipped(w, r, window)
		case strings.HasSuffix(r.URL.Path, "/dags"):
			writeMaybeGzipped(w, r, dags)
		default:
			writeMaybeGzipped(w, r, details)
		}
	})
	ref := RunRef{Name: "failing_job", RunID: "0356UUn8VwcWFuh5L8qwbp"}
	reads := []struct {
		name string
		read func(*Client) error
	}{
		{"run-details-2KB", func(c *Client) error { _, err := c.GetRun(context.Background(), ref); return err }},
		{"log-200-lines", func(c *Client) error {
			_, err := c.GetStepLog(context.Background(), StepRef{Run: ref, Step: "spew"}, gen.StreamStdout, LogWindow{Tail: 200})
			return err
		}},
		{"dags-list", func(c *Client) error { _, err := c.ListDAGs(context.Background(), gen.ListDAGsParams{}); return err }},
	}
	for _, rd := range reads {
		for _, policy := range []Compression{CompressionGzip, CompressionIdentity} {
			b.Run(rd.name+"/"+string(policy), func(b *testing.B) {
				c, err := New(Config{BaseURL: srv.URL, Key: StaticKey("dagu_bench"), Compression: policy})
				if err != nil {
					b.Fatal(err)
				}
				b.ReportAllocs()
				for b.Loop() {
					if err := rd.read(c); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// logWindowAnswer is a Log answer holding the first n lines of a recorded
// step log answer.
func logWindowAnswer(b *testing.B, recorded []byte, n int) []byte {
	b.Helper()
	var l gen.Log
	if err := json.Unmarshal(recorded, &l); err != nil {
		b.Fatal(err)
	}
	lines := strings.SplitN(l.Content, "\n", n+1)[:n]
	count := len(lines)
	out, err := json.Marshal(gen.Log{Content: strings.Join(lines, "\n"), LineCount: &count, TotalLines: &count})
	if err != nil {
		b.Fatal(err)
	}
	return out
}

var gzipWriters = sync.Pool{New: func() any { return gzip.NewWriter(nil) }}

// writeMaybeGzipped answers body, gzipped (with a pooled writer) when the
// request accepts gzip.
func writeMaybeGzipped(w http.ResponseWriter, r *http.Request, body []byte) {
	w.Header().Set("Content-Type", "application/json")
	if !strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
		_, _ = w.Write(body)
		return
	}
	w.Header().Set("Content-Encoding", "gzip")
	zw := gzipWriters.Get().(*gzip.Writer)
	defer gzipWriters.Put(zw)
	zw.Reset(w)
	_, _ = zw.Write(body)
	_ = zw.Close()
}
