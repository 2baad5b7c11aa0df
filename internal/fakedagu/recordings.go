// SPDX-License-Identifier: Apache-2.0

package fakedagu

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"sync"
)

// Recording is one exchange recorded from a real Dagu server: the fixtures
// this fake is built from.
type Recording struct {
	Note    string `json:"note"`
	Request struct {
		Auth   string `json:"auth"`
		Method string `json:"method"`
		Path   string `json:"path"`
	} `json:"request"`
	Response struct {
		Status      int               `json:"status"`
		ContentType string            `json:"contentType"`
		JSON        json.RawMessage   `json:"json"`
		Text        *string           `json:"text"`
		Headers     map[string]string `json:"headers"`
	} `json:"response"`
}

// Body returns the recorded response body: the text of a non-JSON answer,
// else the JSON.
func (r Recording) Body() []byte {
	if r.Response.Text != nil {
		return []byte(*r.Response.Text)
	}
	return r.Response.JSON
}

// Recordings returns every embedded recording of the current Dagu keyed by
// its file name, such as "003-dags.json". Other packages' tests read them
// here rather than keeping copies of the fixtures.
func Recordings() (map[string]Recording, error) {
	return RecordingsOf(ProfileCurrent)
}

// RecordingsOf returns the embedded recordings of one profile's release
// keyed by file name. Request paths are as recorded (for example under
// /api/v2 for 1.29 and 1.17). The OpenAPI document of 2.6 is not embedded;
// the fake generates it.
func RecordingsOf(p Profile) (map[string]Recording, error) {
	if _, ok := dialects[p]; !ok && p != "" {
		return nil, fmt.Errorf("fakedagu: unknown profile %q", p)
	}
	recs, err := embeddedRecordings(dialectOf(p).dataDir)
	return maps.Clone(recs), err
}

// embeddedRecordings parses the embedded recordings of a folder once per
// process.
func embeddedRecordings(dir string) (map[string]Recording, error) {
	recordingCacheMu.Lock()
	load, ok := recordingCache[dir]
	if !ok {
		load = sync.OnceValues(func() (map[string]Recording, error) { return readRecordings(dataFS, dir) })
		recordingCache[dir] = load
	}
	recordingCacheMu.Unlock()
	return load()
}

var (
	recordingCacheMu sync.Mutex
	recordingCache   = map[string]func() (map[string]Recording, error){}
)

// readRecordings reads the numbered recordings of a folder (index.json and
// other documents are skipped).
func readRecordings(fsys fs.FS, dir string) (map[string]Recording, error) {
	names, err := fs.Glob(fsys, dir+"/[0-9]*.json")
	if err != nil {
		return nil, err
	}
	out := make(map[string]Recording, len(names))
	for _, name := range names {
		raw, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		var rec Recording
		if err := json.Unmarshal(raw, &rec); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		out[path.Base(name)] = rec
	}
	return out, nil
}
