// SPDX-License-Identifier: Apache-2.0

package reference

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"
	"unicode/utf8"
)

const (
	// maxTopicBytes bounds one topic file; reference text is prose, and a
	// larger file is a mistake, not a topic.
	maxTopicBytes = 1 << 20
	// maxDirTopics bounds how many files of the directory become topics.
	maxDirTopics = 256
)

// dirFile is what the directory holds for one topic name. A missing file is
// a value, not an error, so that the absence is cached too.
type dirFile struct {
	text  string
	found bool
}

// readTopicFile reads <name>.md from dir. The name must already be valid.
// The file is opened through an os.Root, so a symbolic link that leads out
// of dir is refused.
func readTopicFile(dir, name string) (dirFile, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return dirFile{}, err
	}
	defer root.Close()
	f, err := root.Open(name + ".md")
	if errors.Is(err, fs.ErrNotExist) {
		return dirFile{}, nil
	}
	if err != nil {
		return dirFile{}, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return dirFile{}, err
	}
	if !info.Mode().IsRegular() {
		return dirFile{}, fmt.Errorf("reference topic file %s.md is not a regular file", name)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxTopicBytes+1))
	if err != nil {
		return dirFile{}, err
	}
	if len(data) > maxTopicBytes {
		return dirFile{}, fmt.Errorf("reference topic file %s.md is larger than %d bytes", name, maxTopicBytes)
	}
	if !utf8.Valid(data) {
		return dirFile{}, fmt.Errorf("reference topic file %s.md is not UTF-8 text", name)
	}
	return dirFile{text: string(data), found: true}, nil
}

// listTopicFiles returns the sorted topic names of the .md files in dir,
// skipping names that are not valid topic names.
func listTopicFiles(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range entries {
		// Symbolic links count: Kubernetes ConfigMap volumes present every
		// file as one. readTopicFile decides whether its target is usable.
		if e.IsDir() {
			continue
		}
		stem, ok := strings.CutSuffix(e.Name(), ".md")
		if ok && ValidName(stem) {
			names = append(names, stem)
		}
	}
	slices.Sort(names)
	if len(names) > maxDirTopics {
		names = names[:maxDirTopics]
	}
	return names, nil
}
