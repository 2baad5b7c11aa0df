package fakedagu_test

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu/fakedagutest"
)

// recordedAt is when the recordings were made (000's health timestamp);
// the implicit today-only run window depends on it.
var recordedAt = time.Date(2026, 11, 30, 9, 30, 24, 0, time.UTC)

// recordedOptions make the fake equal to the recorded server.
func recordedOptions() fakedagu.Options {
	return fakedagu.Options{
		APIKey:       fakedagutest.APIKey,
		MCPOnlyKey:   fakedagutest.MCPOnlyKey,
		Now:          func() time.Time { return recordedAt },
		RecordedOnly: true,
	}
}

type fixture struct {
	Request struct {
		Auth, Method, Path string
	}
	Response struct {
		Status      int
		ContentType string
		JSON        json.RawMessage
		Text        *string
		Headers     map[string]string
	}
}

func readFixtures(t *testing.T) map[string]fixture {
	t.Helper()
	names, err := filepath.Glob(filepath.Join("testdata", "fixtures", "*.json"))
	if err != nil || len(names) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	out := map[string]fixture{}
	for _, name := range names {
		raw, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		var f fixture
		if err := json.Unmarshal(raw, &f); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out[filepath.Base(name)] = f
	}
	return out
}

// authHeader turns a recording's auth label into a header value.
func authHeader(t *testing.T, label string) string {
	switch label {
	case "rest_api key":
		return "Bearer " + fakedagutest.APIKey
	case "mcp-only key":
		return "Bearer " + fakedagutest.MCPOnlyKey
	case "bad key":
		return "Bearer dagu_not_a_known_key"
	case "none":
		return ""
	}
	t.Fatalf("unknown auth label %q", label)
	return ""
}

func TestReplaysEveryRecording(t *testing.T) {
	_, base := fakedagutest.Start(t, recordedOptions())
	for name, f := range readFixtures(t) {
		t.Run(name, func(t *testing.T) {
			req, err := http.NewRequest(f.Request.Method, base+f.Request.Path, nil)
			if err != nil {
				t.Fatal(err)
			}
			if h := authHeader(t, f.Request.Auth); h != "" {
				req.Header.Set("Authorization", h)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, err := io.ReadAll(resp.Body)
			if err != nil {
				t.Fatal(err)
			}
			assertRecorded(t, f, resp, body)
		})
	}
}

func assertRecorded(t *testing.T, f fixture, resp *http.Response, body []byte) {
	t.Helper()
	if resp.StatusCode != f.Response.Status {
		t.Errorf("status = %d, want %d (body %s)", resp.StatusCode, f.Response.Status, body)
	}
	if got := resp.Header.Get("Content-Type"); got != f.Response.ContentType {
		t.Errorf("content type = %q, want %q", got, f.Response.ContentType)
	}
	for k, v := range f.Response.Headers {
		if got := resp.Header.Get(k); got != v {
			t.Errorf("header %s = %q, want %q", k, got, v)
		}
	}
	if f.Response.Text != nil {
		if string(body) != *f.Response.Text {
			t.Errorf("body = %q, want %q", body, *f.Response.Text)
		}
		return
	}
	var got, want any
	if err := json.Unmarshal(body, &got); err != nil {
		t.Fatalf("body is not JSON: %v: %s", err, body)
	}
	if err := json.Unmarshal(f.Response.JSON, &want); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("body differs from the recording\n got: %s\nwant: %s", body, f.Response.JSON)
	}
}
