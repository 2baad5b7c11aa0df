// SPDX-License-Identifier: Apache-2.0

// Package gentext rewrites the parts of the repository's texts that are
// generated from a table (the settings, the target rows): what the
// generator commands of internal/config and internal/readtool (run by go
// generate) share. The drift tests call the same renderers, so a stale
// text fails them.
package gentext

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Renderer renders a file's new text from its current one.
type Renderer func(text string) (string, error)

// Main is a generator command: it rewrites the files (paths relative to
// the -root flag, default ".") and exits 1 naming the command and the
// error when one cannot be rendered.
func Main(command string, files map[string]Renderer) {
	root := flag.String("root", ".", "repository root")
	flag.Parse()
	if err := Rewrite(*root, files); err != nil {
		fmt.Fprintln(os.Stderr, command+":", err)
		os.Exit(1)
	}
}

// Rewrite renders each file under root and writes the ones whose text
// changed.
func Rewrite(root string, files map[string]Renderer) error {
	for path, render := range files {
		full := filepath.Join(root, filepath.FromSlash(path))
		old, err := os.ReadFile(full)
		if err != nil {
			return err
		}
		updated, err := render(string(old))
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		if updated != string(old) {
			if err := os.WriteFile(full, []byte(updated), 0o644); err != nil {
				return err
			}
		}
	}
	return nil
}

// Between replaces the text between the begin and end markers (each
// kept) with body; a missing marker is an error that names it.
func Between(text, begin, end, body string) (string, error) {
	before, rest, ok := strings.Cut(text, begin)
	if !ok {
		return "", fmt.Errorf("no %q marker", strings.TrimSpace(begin))
	}
	_, after, ok := strings.Cut(rest, end)
	if !ok {
		return "", fmt.Errorf("no %q marker", strings.TrimSpace(end))
	}
	return before + begin + body + end + after, nil
}
