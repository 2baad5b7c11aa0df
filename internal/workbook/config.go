// SPDX-License-Identifier: Apache-2.0

package workbook

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// Defaults the profile page sets for the operator's limits.
const (
	DefaultMaxBytes      int64 = 50 << 20  // file size
	DefaultMaxUnzipBytes int64 = 500 << 20 // total uncompressed size
	DefaultMaxRows             = 10_000    // data rows profiled per sheet
	DefaultMaxSheets           = 50        // sheets profiled
	// DefaultMaxMemory is the memory one read may keep: the shared
	// strings, styles, lists and statistics it holds and the profile it
	// builds. Two reads at once stay well under a 512 MiB container even
	// counting the garbage collector's headroom.
	DefaultMaxMemory int64 = 64 << 20
	// DefaultConcurrency is the number of reads that run at once; the
	// others wait for a slot.
	DefaultConcurrency = 2
)

// Fixed internal bounds that keep memory predictable whatever the limits.
const (
	// maxMetadataPartBytes caps workbook.xml, styles.xml, relationship and
	// table parts; they are streamed, so it bounds the work of reading them
	// (what they keep is bounded by the read's budget).
	maxMetadataPartBytes int64 = 32 << 20
	// maxSharedStringsBytes caps the XML of the shared string table (what
	// it keeps in memory is bounded by the read's budget).
	maxSharedStringsBytes int64 = 256 << 20
	// maxProfiledCells caps the filled cells profiled per sheet, so a very
	// wide sheet cannot multiply MaxRows into unbounded memory.
	maxProfiledCells = 1_000_000
)

// Config holds the operator's settings. Zero values take the defaults.
type Config struct {
	Roots         []string // allowed directories; empty = any readable workbook
	MaxBytes      int64    // file size limit, default 50 MiB
	MaxUnzipBytes int64    // total uncompressed size limit, default 500 MiB
	MaxRows       int      // data rows profiled per sheet, default 10,000
	MaxSheets     int      // sheets profiled, default 50
	// MaxMemory is the memory budget of one read, default 64 MiB; a
	// workbook that needs more is refused as unavailable.
	MaxMemory int64
	// Concurrency is how many reads run at once, default 2; a read that
	// finds no slot free to it waits until its context ends, then is
	// refused as unavailable. The slots are shared fairly between callers
	// (slots.go).
	Concurrency int
}

// Profiler profiles workbooks under one Config. It is safe for concurrent use.
type Profiler struct {
	roots         []string
	maxBytes      int64
	maxUnzipBytes int64
	maxRows       int
	maxSheets     int
	maxMemory     int64
	concurrency   int
	slots         *slots
	// beforeOpen, when set by a test, runs between the path checks and
	// the open: where another process could swap the file.
	beforeOpen func(*target)
	// duringDecrypt, when set by a test, runs in the decrypting goroutine
	// before excelize starts: where a read can stop while it works.
	duringDecrypt func()
}

// New validates cfg, applies defaults and resolves every root to an
// absolute path without symbolic links. A root must be an existing
// directory.
func New(cfg Config) (*Profiler, error) {
	if cfg.MaxBytes < 0 || cfg.MaxUnzipBytes < 0 || cfg.MaxRows < 0 || cfg.MaxSheets < 0 ||
		cfg.MaxMemory < 0 || cfg.Concurrency < 0 {
		return nil, errors.New("workbook limits must not be negative")
	}
	p := &Profiler{
		maxBytes:      orDefault(cfg.MaxBytes, DefaultMaxBytes),
		maxUnzipBytes: orDefault(cfg.MaxUnzipBytes, DefaultMaxUnzipBytes),
		maxRows:       orDefault(cfg.MaxRows, DefaultMaxRows),
		maxSheets:     orDefault(cfg.MaxSheets, DefaultMaxSheets),
		maxMemory:     orDefault(cfg.MaxMemory, DefaultMaxMemory),
		concurrency:   orDefault(cfg.Concurrency, DefaultConcurrency),
	}
	p.slots = newSlots(p.concurrency)
	for _, root := range cfg.Roots {
		resolved, err := resolveRoot(root)
		if err != nil {
			return nil, err
		}
		p.roots = append(p.roots, resolved)
	}
	return p, nil
}

// Roots returns the resolved allowed directories (empty: no restriction).
func (p *Profiler) Roots() []string { return append([]string(nil), p.roots...) }

func orDefault[T int | int64](value, fallback T) T {
	if value == 0 {
		return fallback
	}
	return value
}

func resolveRoot(root string) (string, error) {
	expanded, err := expandHome(root)
	if err != nil {
		return "", fmt.Errorf("workbook root %q: %w", root, err)
	}
	abs, err := filepath.Abs(expanded)
	if err != nil {
		return "", fmt.Errorf("workbook root %q: %w", root, err)
	}
	resolved, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", fmt.Errorf("workbook root %q: %w", root, err)
	}
	info, err := os.Stat(resolved)
	if err != nil {
		return "", fmt.Errorf("workbook root %q: %w", root, err)
	}
	if !info.IsDir() {
		return "", fmt.Errorf("workbook root %q is not a directory", root)
	}
	return resolved, nil
}
