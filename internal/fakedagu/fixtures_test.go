// SPDX-License-Identifier: Apache-2.0

package fakedagu_test

import (
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu/fakedagutest"
)

// recordedAt is when the recordings of the current Dagu were made (000's
// health timestamp); the implicit today-only run window depends on it.
var recordedAt = time.Date(2026, 11, 30, 9, 30, 24, 0, time.UTC)

// recordedOptions make the fake equal to the recorded current server.
func recordedOptions() fakedagu.Options {
	return fakedagu.Options{
		APIKey:       fakedagutest.APIKey,
		MCPOnlyKey:   fakedagutest.MCPOnlyKey,
		Now:          func() time.Time { return recordedAt },
		RecordedOnly: true,
	}
}

// recordedProfiles are the profiles and the folders of their recordings.
var recordedProfiles = []struct {
	profile fakedagu.Profile
	dir     string
}{
	{fakedagu.ProfileCurrent, filepath.Join("testdata", "fixtures")},
	{fakedagu.Profile26, filepath.Join("testdata", "profiles", "v2.6.5")},
	{fakedagu.Profile20, filepath.Join("testdata", "profiles", "v2.0.0")},
	{fakedagu.Profile129, filepath.Join("testdata", "profiles", "v1.29.2")},
	{fakedagu.Profile117, filepath.Join("testdata", "profiles", "v1.17.4")},
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

// indexEntry is one line of a folder's index.json.
type indexEntry struct {
	File, Path, Auth, Note string
	Status                 int
}

func readIndex(t *testing.T, dir string) []indexEntry {
	t.Helper()
	var idx []indexEntry
	readJSONFile(t, filepath.Join(dir, "index.json"), &idx)
	if len(idx) == 0 {
		t.Fatalf("%s: empty index", dir)
	}
	return idx
}

// readFixture reads one recording; ok is false when it is not stored.
func readFixture(t *testing.T, dir, name string) (fixture, bool) {
	t.Helper()
	var f fixture
	raw, err := os.ReadFile(filepath.Join(dir, name))
	if errors.Is(err, fs.ErrNotExist) {
		return f, false
	}
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &f); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return f, true
}

func readJSONFile(t *testing.T, name string, v any) {
	t.Helper()
	raw, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

// replayExceptions lists, per recording, JSON pointers of subtrees that
// show an earlier state of the recorded server than the fake keeps (see
// the file's note); the replay compares everything else.
type replayExceptions struct {
	Note   string              `json:"note"`
	Ignore map[string][]string `json:"ignore"`
}

func readReplayExceptions(t *testing.T, dir string) replayExceptions {
	t.Helper()
	var ex replayExceptions
	if _, err := os.Stat(filepath.Join(dir, "replay-exceptions.json")); err == nil {
		readJSONFile(t, filepath.Join(dir, "replay-exceptions.json"), &ex)
	}
	return ex
}

// profileOptions make the fake equal to a profile's recorded server: its
// clock stands at the recorded health answer.
func profileOptions(t *testing.T, profile fakedagu.Profile, dir string) fakedagu.Options {
	t.Helper()
	health, ok := readFixture(t, dir, "000-health.json")
	if !ok {
		t.Fatalf("%s: no health recording", dir)
	}
	var body struct{ Timestamp time.Time }
	if err := json.Unmarshal(health.Response.JSON, &body); err != nil {
		t.Fatal(err)
	}
	opts := recordedOptions()
	opts.Profile = profile
	opts.Now = func() time.Time { return body.Timestamp }
	return opts
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
	t.Parallel()
	for _, rp := range recordedProfiles {
		t.Run(rp.profile.String(), func(t *testing.T) {
			_, base := fakedagutest.Start(t, profileOptions(t, rp.profile, rp.dir))
			exceptions := readReplayExceptions(t, rp.dir)
			for _, e := range readIndex(t, rp.dir) {
				t.Run(e.File, func(t *testing.T) {
					f, ok := readFixture(t, rp.dir, e.File)
					if !ok {
						if !strings.HasSuffix(e.Path, "/openapi.json") {
							t.Fatalf("%s is indexed but not stored", e.File)
						}
						t.Skip("the recorded OpenAPI document is not stored; the fake generates its own")
					}
					if f.Request.Path != e.Path || f.Response.Status != e.Status || f.Request.Auth != e.Auth {
						t.Fatalf("index and recording disagree: %+v vs %+v", e, f.Request)
					}
					resp, body := replay(t, base, f)
					assertRecorded(t, f, resp, body, exceptions.Ignore[e.File])
				})
			}
		})
	}
}

// replay sends a recorded request to the fake.
func replay(t *testing.T, base string, f fixture) (*http.Response, []byte) {
	t.Helper()
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
	return resp, body
}

func assertRecorded(t *testing.T, f fixture, resp *http.Response, body []byte, ignore []string) {
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
	for _, pointer := range ignore {
		removePointer(t, got, pointer)
		removePointer(t, want, pointer)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("body differs from the recording\n got: %s\nwant: %s", body, f.Response.JSON)
	}
}

// removePointer deletes the value a JSON pointer names (it must exist).
func removePointer(t *testing.T, doc any, pointer string) {
	t.Helper()
	parts := strings.Split(strings.TrimPrefix(pointer, "/"), "/")
	for i, part := range parts {
		last := i == len(parts)-1
		switch node := doc.(type) {
		case map[string]any:
			if _, ok := node[part]; !ok {
				t.Fatalf("pointer %s: no %q", pointer, part)
			}
			if last {
				delete(node, part)
				return
			}
			doc = node[part]
		case []any:
			n, err := strconv.Atoi(part)
			if err != nil || n < 0 || n >= len(node) {
				t.Fatalf("pointer %s: bad index %q", pointer, part)
			}
			if last {
				node[n] = nil
				return
			}
			doc = node[n]
		default:
			t.Fatalf("pointer %s: %q is not a container", pointer, part)
		}
	}
}
