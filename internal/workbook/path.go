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
	resolved string // absolute, cleaned, symbolic links evaluated
	name     string // base name, used in agent-facing messages
	size     int64
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
	resolved, err := resolveExisting(filepath.Clean(expanded))
	if err != nil {
		return nil, errUnreadable(name, err)
	}
	// Roots are checked before existence so that a caller cannot probe
	// which files exist outside them.
	if !p.allowed(resolved) {
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
	return &target{resolved: resolved, name: name, size: info.Size()}, nil
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

// allowed reports whether a resolved path lies under one of the roots.
func (p *Profiler) allowed(resolved string) bool {
	if len(p.roots) == 0 {
		return true
	}
	for _, root := range p.roots {
		if within(root, resolved) {
			return true
		}
	}
	return false
}

func within(root, path string) bool {
	rel, err := filepath.Rel(root, path)
	if err != nil {
		return false
	}
	return rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
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
