// SPDX-License-Identifier: Apache-2.0

package fakedagu_test

import (
	"encoding/json"
	"io"
	"net/http"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu/fakedagutest"
)

// answer is one HTTP answer of the fake.
type answer struct {
	status      int
	contentType string
	header      http.Header
	body        []byte
}

// object decodes a JSON object answer.
func (a answer) object(t *testing.T) map[string]any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal(a.body, &v); err != nil {
		t.Fatalf("answer is not a JSON object: %v: %s", err, a.body)
	}
	return v
}

// message returns the message of a JSON error answer.
func (a answer) message(t *testing.T) string {
	t.Helper()
	m, _ := a.object(t)["message"].(string)
	return m
}

// api is a started fake plus the URL of its /api/v1.
type api struct {
	server *fakedagu.Server
	url    string
	auth   string
}

// startAPI starts a fake configured like the recorded server, adjusted by
// mutate, and authenticates requests with its REST key.
func startAPI(t *testing.T, mutate func(*fakedagu.Options)) api {
	t.Helper()
	opts := recordedOptions()
	if mutate != nil {
		mutate(&opts)
	}
	s, base := fakedagutest.Start(t, opts)
	return api{server: s, url: base + "/api/v1", auth: "Bearer " + fakedagutest.APIKey}
}

// get fetches a path below /api/v1 (path includes any query).
func (a api) get(t *testing.T, path string) answer {
	t.Helper()
	return a.do(t, http.MethodGet, path, a.auth)
}

func (a api) do(t *testing.T, method, path, auth string) answer {
	t.Helper()
	req, err := http.NewRequest(method, a.url+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: reading body: %v", method, path, err)
	}
	return answer{status: resp.StatusCode, contentType: resp.Header.Get("Content-Type"), header: resp.Header, body: body}
}

// names collects a string field of every object in a JSON array.
func names(t *testing.T, list any, field string) []string {
	t.Helper()
	items, ok := list.([]any)
	if !ok {
		t.Fatalf("not a JSON array: %v", list)
	}
	out := make([]string, 0, len(items))
	for _, it := range items {
		s, _ := it.(map[string]any)[field].(string)
		out = append(out, s)
	}
	return out
}

// number returns a JSON number field as an int.
func number(v map[string]any, field string) int {
	n, _ := v[field].(float64)
	return int(n)
}
