// SPDX-License-Identifier: Apache-2.0

package frontdoor

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"runtime/debug"
	"sync"

	segjson "github.com/segmentio/encoding/json"
)

// maxBatchMessages bounds a 2025-03-26 batch: each message costs what a
// request costs (memory reservation, rate limit, concurrency slot, time),
// so a batch is at most this many requests sent at once over one
// connection.
const maxBatchMessages = 10

// batchFault reads a batch body: its messages, or the fault of a body that
// is not a list of 1 to maxBatchMessages JSON values whose IDs differ (the
// answers are told apart by their IDs).
func batchFault(body []byte) ([]json.RawMessage, *rpcFault) {
	if nestedDeeperThan(body, maxNesting) {
		return nil, &rpcFault{code: codeParseError, message: fmt.Sprintf("Parse error: the batch nests deeper than %d levels.", maxNesting)}
	}
	var batch []json.RawMessage
	rest, err := segjson.Parse(body, &batch, segjson.DontMatchCaseInsensitiveStructFields)
	switch {
	case err != nil || len(bytes.TrimLeft(rest, " \t\r\n")) > 0:
		return nil, &rpcFault{code: codeParseError, message: "Parse error: the request body is not one JSON array."}
	case len(batch) == 0:
		return nil, &rpcFault{code: codeInvalidRequest, message: "Invalid request: an empty batch."}
	case len(batch) > maxBatchMessages:
		return nil, &rpcFault{code: codeInvalidRequest, message: fmt.Sprintf("Invalid request: a batch holds at most %d messages; send the others in another request.", maxBatchMessages)}
	}
	seen := make(map[string]bool, len(batch))
	for _, msg := range batch {
		if id := idOf(msg); id != nil && seen[string(id)] {
			return nil, &rpcFault{code: codeInvalidRequest, message: fmt.Sprintf("Invalid request: the batch uses the ID %s twice; each request of a batch needs its own.", echoed(string(id)))}
		} else if id != nil {
			seen[string(id)] = true
		}
	}
	return batch, nil
}

// serveBatch answers a 2025-03-26 batch. Each message is served as a
// request of its own with the same headers and caller: it reserves its
// memory like one (all of them before any runs, so that a batch that does
// not fit is refused whole with 503 and nothing is spent), passes the same
// JSON-RPC check, and reaches the MCP handler alone, where the tool counts
// it against the caller's rate limit and concurrency like any call. The
// messages run at once and their answers come back in one JSON array in
// the batch's order (notifications and client answers have none; a batch
// of only those answers 202). A message the MCP handler refuses at the
// HTTP level (not a JSON-RPC answer, such as a 415 for the content type)
// answers the whole batch with that refusal.
func (m *messages) serveBatch(w http.ResponseWriter, r *http.Request, body []byte) {
	batch, fault := batchFault(body)
	if fault != nil {
		fault.write(w, protocol20250326)
		return
	}
	requests := make([]*http.Request, len(batch))
	for i, msg := range batch {
		sub := r.Clone(r.Context())
		sub.Body, sub.ContentLength = io.NopCloser(bytes.NewReader(msg)), int64(len(msg))
		admitted, release, ok := m.admit.admit(sub, int64(len(msg)), false)
		if !ok {
			refuseBusy(w)
			return
		}
		defer release()
		requests[i] = admitted
	}
	answers := make([]*capturedAnswer, len(batch))
	var wg sync.WaitGroup
	for i := range batch {
		wg.Go(func() { answers[i] = m.serveInBatch(requests[i], batch[i]) })
	}
	wg.Wait()
	writeBatchAnswer(w, answers)
}

// serveInBatch serves one message of a batch as a request of its own and
// captures its answer. A panic becomes that message's internal error (it
// runs on a goroutine of its own, where nothing else would catch it).
func (m *messages) serveInBatch(r *http.Request, msg []byte) (answer *capturedAnswer) {
	answer = newCapturedAnswer()
	defer func() {
		if v := recover(); v != nil {
			m.logger.Error("mcp batch message panic", "path", r.URL.Path, "panic", v, "stack", string(debug.Stack()))
			answer = newCapturedAnswer()
			f := &rpcFault{code: codeInternalError, message: "Internal error.", id: idOf(msg)}
			f.write(answer, protocol20250326)
		}
	}()
	if f := checkMessage(msg, protocol20250326); f != nil {
		f.write(answer, protocol20250326)
		return answer
	}
	m.next.ServeHTTP(answer, r)
	return answer
}

// idOf is a message's ID as sent, nil when it has none the front door
// can read.
func idOf(msg []byte) json.RawMessage {
	var m rpcMessage
	if _, err := segjson.Parse(msg, &m, segjson.DontMatchCaseInsensitiveStructFields); err != nil {
		return nil
	}
	id, _ := messageID(m.ID)
	return id
}

// writeBatchAnswer writes the answers of a batch's messages as one.
func writeBatchAnswer(w http.ResponseWriter, answers []*capturedAnswer) {
	var parts [][]byte
	for _, a := range answers {
		switch {
		case a.status == http.StatusAccepted && a.body.Len() == 0:
		case a.isJSONRPC():
			parts = append(parts, bytes.TrimSpace(a.body.Bytes()))
		default:
			a.replay(w)
			return
		}
	}
	if len(parts) == 0 {
		w.WriteHeader(http.StatusAccepted)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-cache, no-transform")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(append(append([]byte{'['}, bytes.Join(parts, []byte{','})...), ']', '\n'))
}

// capturedAnswer is an http.ResponseWriter that keeps one answer in
// memory: the answer of one message of a batch, which the message's
// memory reservation covers as it covers a request's.
type capturedAnswer struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func newCapturedAnswer() *capturedAnswer {
	return &capturedAnswer{header: http.Header{}, status: http.StatusOK}
}

// Header returns the answer's headers.
func (c *capturedAnswer) Header() http.Header { return c.header }

// WriteHeader records the status.
func (c *capturedAnswer) WriteHeader(status int) { c.status = status }

// Write keeps p.
func (c *capturedAnswer) Write(p []byte) (int, error) { return c.body.Write(p) }

// isJSONRPC reports whether the answer is a JSON-RPC object in JSON.
func (c *capturedAnswer) isJSONRPC() bool {
	media, _, err := mime.ParseMediaType(c.header.Get("Content-Type"))
	return err == nil && media == "application/json" && bytes.HasPrefix(bytes.TrimSpace(c.body.Bytes()), []byte{'{'})
}

// replay writes the answer as it was captured.
func (c *capturedAnswer) replay(w http.ResponseWriter) {
	for k, v := range c.header {
		w.Header()[k] = v
	}
	w.WriteHeader(c.status)
	_, _ = w.Write(c.body.Bytes())
}
