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

// Recordings returns every embedded recording keyed by its file name, such
// as "003-dags.json". Other packages' tests read them here rather than
// keeping copies of the fixtures.
func Recordings() (map[string]Recording, error) {
	recs, err := embeddedRecordings()
	return maps.Clone(recs), err
}

// embeddedRecordings parses the embedded fixtures once per process.
var embeddedRecordings = sync.OnceValues(func() (map[string]Recording, error) { return readRecordings(dataFS) })

func readRecordings(fsys fs.FS) (map[string]Recording, error) {
	names, err := fs.Glob(fsys, "testdata/fixtures/*.json")
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
