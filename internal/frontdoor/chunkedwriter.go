// SPDX-License-Identifier: Apache-2.0

package frontdoor

import (
	"net/http"
	"time"
)

// An answer is written in chunks of chunkBytes, each of which must reach
// the client's connection within chunkWriteTimeout: at least 6.4 KB/s,
// which any client that reads at all exceeds, while one that stopped
// reading (or reads through a tiny receive window) is cut off after
// seconds instead of holding its answer until the server's write timeout.
const (
	chunkBytes        = 64 << 10
	chunkWriteTimeout = 10 * time.Second
)

// chunkedWriter writes through to the client in chunks, setting the
// connection's write deadline before each (http.ResponseController). A
// writer whose connection cannot take deadlines (a test recorder) writes
// the same chunks without them.
type chunkedWriter struct {
	http.ResponseWriter
	rc  *http.ResponseController
	now func() time.Time
}

func newChunkedWriter(w http.ResponseWriter) *chunkedWriter {
	return &chunkedWriter{ResponseWriter: w, rc: http.NewResponseController(w), now: time.Now}
}

// Write writes p in chunks, each under its own deadline; it stops at the
// first chunk that fails.
func (c *chunkedWriter) Write(p []byte) (int, error) {
	written := 0
	for len(p) > 0 {
		n := min(len(p), chunkBytes)
		_ = c.rc.SetWriteDeadline(c.now().Add(chunkWriteTimeout))
		m, err := c.ResponseWriter.Write(p[:n])
		written += m
		if err != nil {
			return written, err
		}
		p = p[n:]
	}
	return written, nil
}

// Flush forwards to the underlying writer when it can flush.
func (c *chunkedWriter) Flush() { _ = c.rc.Flush() }

// Unwrap returns the underlying writer, for http.ResponseController.
func (c *chunkedWriter) Unwrap() http.ResponseWriter { return c.ResponseWriter }
