package fakedagu

import (
	"embed"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"slices"
	"strings"
	"sync"
)

//go:embed testdata/fixtures/*.json testdata/derived/*.json testdata/derived/specs/*.yaml
var dataFS embed.FS

// sources holds everything the dataset is built from, decoded once: recorded
// response bodies keyed by request path, the authored derived documents and
// the authored spec texts.
type sources struct {
	recorded map[string]any    // request path (with query) -> decoded JSON body
	derived  map[string]obj    // derived document base name -> document
	specs    map[string]string // DAG file name -> authored YAML spec
}

var (
	baseSourcesOnce sync.Once
	baseSources     *sources
)

// loadSources parses the embedded data once per process.
func loadSources() *sources {
	baseSourcesOnce.Do(func() {
		src, err := parseSources(dataFS)
		if err != nil {
			panic(fmt.Sprintf("fakedagu: embedded data: %v", err))
		}
		baseSources = src
	})
	return baseSources
}

func parseSources(fsys fs.FS) (*sources, error) {
	src := &sources{recorded: map[string]any{}, derived: map[string]obj{}, specs: map[string]string{}}
	if err := src.readRecordings(fsys); err != nil {
		return nil, err
	}
	if err := src.readDerived(fsys); err != nil {
		return nil, err
	}
	specs, err := fs.Glob(fsys, "testdata/derived/specs/*.yaml")
	if err != nil {
		return nil, err
	}
	for _, name := range specs {
		raw, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		src.specs[strings.TrimSuffix(path.Base(name), ".yaml")] = string(raw)
	}
	return src, nil
}

func (src *sources) readRecordings(fsys fs.FS) error {
	recs, err := readRecordings(fsys)
	if err != nil {
		return err
	}
	for _, name := range slices.Sorted(maps.Keys(recs)) {
		rec := recs[name]
		if len(rec.Response.JSON) == 0 || rec.Request.Auth != "rest_api key" {
			continue
		}
		body, err := decodeJSON(rec.Response.JSON)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		src.recorded[rec.Request.Path] = body
	}
	return nil
}

func (src *sources) readDerived(fsys fs.FS) error {
	names, err := fs.Glob(fsys, "testdata/derived/*.json")
	if err != nil {
		return err
	}
	for _, name := range names {
		raw, err := fs.ReadFile(fsys, name)
		if err != nil {
			return err
		}
		doc, err := decodeJSON(raw)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		src.derived[strings.TrimSuffix(path.Base(name), ".json")] = mustObj(doc, name)
	}
	return nil
}

// shifted returns a copy of the sources with every recorded timestamp moved.
func (src *sources) shifted(d timeShift) *sources {
	out := &sources{recorded: map[string]any{}, derived: map[string]obj{}, specs: src.specs}
	for k, v := range src.recorded {
		out.recorded[k] = shiftTree(v, d)
	}
	for k, v := range src.derived {
		out.derived[k] = mustObj(shiftTree(v, d), k)
	}
	return out
}

// body returns the recorded body for an API path (relative to /api/v1).
func (src *sources) body(apiPath string) obj {
	v, ok := src.recorded["/api/v1"+apiPath]
	if !ok {
		panic("fakedagu: no recording for " + apiPath)
	}
	return mustObj(v, apiPath)
}
