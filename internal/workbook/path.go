// SPDX-License-Identifier: Apache-2.0

package workbook

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// target is a workbook path that passed the path checks.
type target struct {
	path     string // as given, home expanded and cleaned
	resolved string // absolute, cleaned, symbolic links evaluated
	name     string // base name, used in agent-facing messages
	// root is the configured root the file lies under, and rel its path
	// inside it; root is empty when no roots are configured.
	root, rel string
	// size is the file's size: from Stat while the path is checked, then
	// from the opened descriptor, which is the one that counts.
	size int64
}

// resolveTarget applies the path rules in the order the profile page gives
// them: extension, absoluteness, roots, existence, lock files, size.
func (p *Profiler) resolveTarget(path string) (*target, error) {
	name := filepath.Base(path)
	if !hasWorkbookExtension(path) {
		return nil, errUnsupportedExtension()
	}
	expanded, err := expandHome(path)
	if err != nil {
		return nil, errUnreadable(name, err)
	}
	if !filepath.IsAbs(expanded) {
		return nil, errRelativePath()
	}
	cleaned := filepath.Clean(expanded)
	resolved, err := resolveExisting(cleaned)
	if err != nil {
		return nil, errUnreadable(name, err)
	}
	// Roots are checked before existence so that a caller cannot probe
	// which files exist outside them.
	root, rel, ok := p.rootOf(resolved)
	if !ok {
		return nil, errOutsideRoots(name)
	}
	info, err := os.Stat(resolved)
	switch {
	case isMissing(err):
		return nil, errNotFound(name, err)
	case err != nil:
		return nil, errUnreadable(name, err)
	case !info.Mode().IsRegular():
		return nil, errNotWorkbook(name, nil)
	}
	if lock, held := lockFileBeside(resolved); held {
		return nil, errHeld(name, lock)
	}
	if info.Size() > p.maxBytes {
		return nil, errTooLarge(name, info.Size(), p.maxBytes)
	}
	return &target{path: cleaned, resolved: resolved, name: name, root: root, rel: rel, size: info.Size()}, nil
}

// isMissing reports a path that does not exist, including one whose parent
// is a regular file.
func isMissing(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)
}

func hasWorkbookExtension(path string) bool {
	ext := strings.ToLower(filepath.Ext(path))
	return ext == ".xlsx" || ext == ".xlsm"
}

// expandHome replaces a leading "~" or "~/" with the process's home
// directory. Other paths, including "~user", are returned unchanged.
func expandHome(path string) (string, error) {
	if path != "~" && !strings.HasPrefix(path, "~/") {
		return path, nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(home, path[1:]), nil
}

// resolveExisting evaluates symbolic links in the longest existing prefix
// of an absolute, cleaned path and appends the rest unchanged, so a path
// to a missing file still resolves to where it would be.
func resolveExisting(path string) (string, error) {
	resolved, err := filepath.EvalSymlinks(path)
	if err == nil {
		return resolved, nil
	}
	if !isMissing(err) {
		return "", err
	}
	parent := filepath.Dir(path)
	if parent == path {
		return path, nil
	}
	resolvedParent, err := resolveExisting(parent)
	if err != nil {
		return "", err
	}
	return filepath.Join(resolvedParent, filepath.Base(path)), nil
}

// rootOf finds the root a resolved path lies under and the path inside
// it; with no roots configured every path is allowed (root is empty).
func (p *Profiler) rootOf(resolved string) (root, rel string, ok bool) {
	if len(p.roots) == 0 {
		return "", resolved, true
	}
	for _, root := range p.roots {
		if rel, ok := within(root, resolved); ok {
			return root, rel, true
		}
	}
	return "", "", false
}

// within returns path relative to root when it lies under it.
func within(root, path string) (string, bool) {
	rel, err := filepath.Rel(root, path)
	if err != nil {
		return "", false
	}
	ok := rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
	return rel, ok
}

// lockFileBeside reports the lock file Excel (`~$name`) or LibreOffice
// (`.~lock.name#`) keeps beside a workbook it holds open.
func lockFileBeside(path string) (string, bool) {
	dir, base := filepath.Split(path)
	for _, lock := range []string{"~$" + base, ".~lock." + base + "#"} {
		if _, err := os.Lstat(filepath.Join(dir, lock)); err == nil {
			return lock, true
		}
	}
	return "", false
}
