// SPDX-License-Identifier: Apache-2.0

package workbook

import (
	"os"
	"syscall"
)

// openFlags open a workbook for reading without ever waiting: O_NONBLOCK
// makes open(2) of a FIFO or a device return at once instead of blocking
// a workbook slot until a writer appears.
const openFlags = os.O_RDONLY | syscall.O_NONBLOCK

// openTarget opens the checked workbook and checks the opened descriptor,
// not the path: the path may have changed since it was checked. Under a
// root the file is opened through os.Root, so no symbolic link or ".."
// swapped in since can lead out of it. The descriptor must be a regular
// file within the size limit; t.size becomes its size.
func (p *Profiler) openTarget(t *target) (*os.File, error) {
	if p.beforeOpen != nil {
		p.beforeOpen(t)
	}
	file, err := openWithin(t.root, t.rel)
	if err != nil {
		return nil, p.openFailure(t, err)
	}
	info, err := file.Stat()
	switch {
	case err != nil:
		file.Close()
		return nil, errUnreadable(t.name, err)
	case !info.Mode().IsRegular():
		file.Close()
		return nil, errNotWorkbook(t.name, nil)
	case info.Size() > p.maxBytes:
		file.Close()
		return nil, errTooLarge(t.name, info.Size(), p.maxBytes)
	}
	t.size = info.Size()
	return file, nil
}

// openWithin opens rel inside the directory root, or the absolute path
// rel when root is empty (no roots configured).
func openWithin(root, rel string) (*os.File, error) {
	if root == "" {
		return os.OpenFile(rel, openFlags, 0)
	}
	r, err := os.OpenRoot(root)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return r.OpenFile(rel, openFlags, 0)
}

// openFailure explains a failed open. The path is resolved again to tell
// a file that has gone from one that now leads out of every root (os.Root
// refused to follow it).
func (p *Profiler) openFailure(t *target, err error) error {
	if resolved, rerr := resolveExisting(t.path); rerr == nil {
		if _, _, ok := p.rootOf(resolved); !ok {
			return errOutsideRoots(t.name)
		}
	}
	if isMissing(err) {
		return errNotFound(t.name, err)
	}
	return errUnreadable(t.name, err)
}
