// SPDX-License-Identifier: Apache-2.0

//go:build hostile && linux

package hostile

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"time"
)

// client is shared by the callers of a test; each request is bounded.
var client = &http.Client{
	Timeout:   10 * time.Second,
	Transport: &http.Transport{MaxIdleConnsPerHost: 256, MaxConnsPerHost: 512},
}

// victimRead is what a team member reads during an attack.
const victimRead = `{"target":"dags"}`

// rpcBody is one JSON-RPC request to dagu_read with the given arguments.
func rpcBody(args string) []byte {
	return []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"dagu_read","arguments":` + args + `}}`)
}

// outcome is what one request to /mcp got.
type outcome struct {
	status int
	ok     bool   // a tools/call result that is not an error
	answer string // the start of the answer, for the log
	size   int    // bytes of the answer
	err    error
}

// post sends body to /mcp with the bearer and headers and reads the
// answer (64 MiB at most).
func post(ctx context.Context, base, bearer string, body []byte, header http.Header) outcome {
	return postAt(ctx, base+"/mcp", bearer, body, header)
}

// postAt is post to the MCP endpoint at url.
func postAt(ctx context.Context, url, bearer string, body []byte, header http.Header) outcome {
	return postVia(ctx, client, url, bearer, body, header)
}

// postVia is postAt through the client c.
func postVia(ctx context.Context, c *http.Client, url, bearer string, body []byte, header http.Header) outcome {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return outcome{err: err}
	}
	for k, v := range header {
		req.Header[k] = v
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if bearer != "" {
		req.Header.Set("Authorization", "Bearer "+bearer)
	}
	res, err := c.Do(req)
	if err != nil {
		return outcome{err: err}
	}
	defer res.Body.Close()
	data, err := io.ReadAll(io.LimitReader(res.Body, 64<<20))
	if err != nil {
		return outcome{status: res.StatusCode, err: err}
	}
	return outcome{status: res.StatusCode, ok: res.StatusCode == http.StatusOK && readSucceeded(data), answer: string(data[:min(len(data), 300)]), size: len(data)}
}

// readSucceeded reports whether a JSON-RPC answer (JSON, or one SSE
// message) is a tools/call result that is not an error.
func readSucceeded(data []byte) bool {
	if i := bytes.Index(data, []byte("data: ")); i >= 0 && !bytes.HasPrefix(bytes.TrimSpace(data), []byte("{")) {
		data = data[i+len("data: "):]
	}
	var msg struct {
		Result *struct {
			IsError bool `json:"isError"`
		} `json:"result"`
	}
	return json.Unmarshal(data, &msg) == nil && msg.Result != nil && !msg.Result.IsError
}

// read is one dagu_read call.
func read(ctx context.Context, base, bearer, args string, header http.Header) outcome {
	return post(ctx, base, bearer, rpcBody(args), header)
}

// readAt is one dagu_read call to the MCP endpoint at url.
func readAt(ctx context.Context, url, bearer, args string, header http.Header) outcome {
	return postAt(ctx, url, bearer, rpcBody(args), header)
}

// madeUpKey is a bearer no Dagu ever issued.
func madeUpKey() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return "dagu_" + hex.EncodeToString(b[:])
}

// tally counts a caller's reads.
type tally struct{ ok, total atomic.Int64 }

func (t *tally) rate() float64 {
	if t.total.Load() == 0 {
		return 0
	}
	return float64(t.ok.Load()) / float64(t.total.Load())
}

// victim reads every 100 ms with its key until ctx ends.
func victim(ctx context.Context, base, key string, header http.Header, into *tally) {
	for ctx.Err() == nil {
		callCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		o := read(callCtx, base, key, victimRead, header)
		cancel()
		into.total.Add(1)
		if o.ok {
			into.ok.Add(1)
		}
		sleep(ctx, 100*time.Millisecond)
	}
}

// getsIn reports whether a new caller's read succeeds within 5 s, trying
// again every 250 ms, and what its last try got.
func getsIn(base, key string, header http.Header) (bool, outcome) {
	deadline := time.Now().Add(5 * time.Second)
	var o outcome
	for time.Now().Before(deadline) {
		ctx, cancel := context.WithDeadline(context.Background(), deadline)
		o = read(ctx, base, key, victimRead, header)
		cancel()
		if o.ok {
			return true, o
		}
		time.Sleep(250 * time.Millisecond)
	}
	return false, o
}

func sleep(ctx context.Context, d time.Duration) {
	select {
	case <-ctx.Done():
	case <-time.After(d):
	}
}

// forwardedFor is a header set by a trusted proxy naming the client.
func forwardedFor(addr string) http.Header {
	return http.Header{"X-Forwarded-For": {addr}}
}

// unknownKeysArguments is dagu_read arguments of about size bytes: a
// target and as many unknown keys as fit.
func unknownKeysArguments(size int) string {
	var b strings.Builder
	b.Grow(size + 64)
	b.WriteString(`{"target":"dags"`)
	for i := 0; b.Len() < size; i++ {
		b.WriteString(`,"k`)
		b.WriteString(hex.EncodeToString([]byte{byte(i >> 16), byte(i >> 8), byte(i)}))
		b.WriteString(`":0`)
	}
	b.WriteString("}")
	return b.String()
}
