// SPDX-License-Identifier: Apache-2.0

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

//go:embed testdata/fixtures/*.json testdata/derived/*.json testdata/derived/specs/*.yaml testdata/profiles
var dataFS embed.FS

// sources holds everything a profile's dataset is built from, decoded once:
// recorded response bodies keyed by request path relative to the API base,
// the authored derived documents and the spec texts (authored, or pieced
// together from recorded search snippets).
type sources struct {
	recorded map[string]any    // API-relative request path (with query) -> decoded JSON body
	derived  map[string]obj    // derived document base name -> document
	specs    map[string]string // DAG file name -> spec text not recorded whole
}

var (
	sourcesMu    sync.Mutex
	sourcesCache = map[Profile]*sources{}
)

// loadSources parses the embedded data of a profile once per process.
func loadSources(d *dialect) *sources {
	sourcesMu.Lock()
	defer sourcesMu.Unlock()
	if src, ok := sourcesCache[d.profile]; ok {
		return src
	}
	src, err := parseSources(dataFS, d)
	if err != nil {
		panic(fmt.Sprintf("fakedagu: embedded data of profile %s: %v", d.profile, err))
	}
	sourcesCache[d.profile] = src
	return src
}

func parseSources(fsys fs.FS, d *dialect) (*sources, error) {
	src := &sources{recorded: map[string]any{}, derived: map[string]obj{}, specs: map[string]string{}}
	if err := src.readRecordings(fsys, d); err != nil {
		return nil, err
	}
	if d.derived != "" {
		if err := src.readDerived(fsys, d.derived); err != nil {
			return nil, err
		}
		if err := src.readSpecs(fsys, d.derived+"/specs"); err != nil {
			return nil, err
		}
	}
	src.addSnippetSpecs()
	return src, nil
}

// readRecordings keeps the JSON bodies the REST key received below the API
// base; a later recording of the same request wins (it shows the final
// state of the recorded server).
func (src *sources) readRecordings(fsys fs.FS, d *dialect) error {
	recs, err := readRecordings(fsys, d.dataDir)
	if err != nil {
		return err
	}
	for _, name := range slices.Sorted(maps.Keys(recs)) {
		rec := recs[name]
		rel, ok := strings.CutPrefix(rec.Request.Path, d.apiBase)
		if !ok || len(rec.Response.JSON) == 0 || rec.Request.Auth != "rest_api key" {
			continue
		}
		body, err := decodeJSON(rec.Response.JSON)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		src.recorded[rel] = body
	}
	return nil
}

func (src *sources) readDerived(fsys fs.FS, dir string) error {
	return eachFile(fsys, dir, ".json", func(name, base string, raw []byte) error {
		doc, err := decodeJSON(raw)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		src.derived[base] = mustObj(doc, name)
		return nil
	})
}

func (src *sources) readSpecs(fsys fs.FS, dir string) error {
	return eachFile(fsys, dir, ".yaml", func(_, base string, raw []byte) error {
		src.specs[base] = string(raw)
		return nil
	})
}

// eachFile calls use with every file of dir ending in ext: its path, its
// base name without ext, and its content.
func eachFile(fsys fs.FS, dir, ext string, use func(name, base string, raw []byte) error) error {
	names, err := fs.Glob(fsys, dir+"/*"+ext)
	if err != nil {
		return err
	}
	for _, name := range names {
		raw, err := fs.ReadFile(fsys, name)
		if err != nil {
			return err
		}
		if err := use(name, strings.TrimSuffix(path.Base(name), ext), raw); err != nil {
			return err
		}
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

// body returns the recorded body for an API path; every profile records it.
func (src *sources) body(apiPath string) obj {
	v, ok := src.recorded[apiPath]
	if !ok {
		panic("fakedagu: no recording for " + apiPath)
	}
	return mustObj(v, apiPath)
}

// optionalBody returns the recorded body for an API path, or nil.
func (src *sources) optionalBody(apiPath string) obj {
	o, _ := src.recorded[apiPath].(obj)
	return o
}
