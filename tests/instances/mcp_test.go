// SPDX-License-Identifier: Apache-2.0

//go:build instances

package instances

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"testing"
	"time"
)

// answer is what one POST of a dagu_read call got.
type answer struct {
	status     int
	body       string
	structured map[string]any // result.structuredContent
	isError    bool
}

// readAt calls dagu_read with args at the gateway's path ("/dagu/old/mcp")
// with the bearer.
func readAt(t *testing.T, g *gateway, path, bearer, args string) answer {
	t.Helper()
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"dagu_read","arguments":` + args + `}}`
	status, data := post(t, g.Base+path, bearer, body)
	a := answer{status: status, body: string(data)}
	var msg struct {
		Result *struct {
			IsError           bool           `json:"isError"`
			StructuredContent map[string]any `json:"structuredContent"`
		} `json:"result"`
	}
	if status == http.StatusOK && json.Unmarshal(data, &msg) == nil && msg.Result != nil {
		a.structured, a.isError = msg.Result.StructuredContent, msg.Result.IsError
	}
	return a
}

// post sends a JSON-RPC body and returns the status and the body (1 MiB
// at most).
func post(t *testing.T, url, bearer, body string) (int, []byte) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader([]byte(body)))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if bearer != "" {
		req.Header.Set("Authorization", "Bearer "+bearer)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("POST %s: %v", url, err)
	}
	defer res.Body.Close()
	data, err := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	if err != nil {
		t.Fatalf("POST %s: %v", url, err)
	}
	return res.StatusCode, data
}

// get GETs a path of the gateway with the bearer and returns the status
// and body (1 MiB at most).
func get(t *testing.T, g *gateway, path, bearer string) (int, []byte) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, g.Base+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if bearer != "" {
		req.Header.Set("Authorization", "Bearer "+bearer)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	return res.StatusCode, data
}

// findString returns the first string value of key anywhere in v.
func findString(v any, key string) string {
	switch x := v.(type) {
	case map[string]any:
		if s, ok := x[key].(string); ok && s != "" {
			return s
		}
		for _, child := range x {
			if s := findString(child, key); s != "" {
				return s
			}
		}
	case []any:
		for _, child := range x {
			if s := findString(child, key); s != "" {
				return s
			}
		}
	}
	return ""
}
