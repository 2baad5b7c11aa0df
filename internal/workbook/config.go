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
)

// Fixed internal bounds that keep memory predictable whatever the limits.
const (
	// maxMetadataPartBytes caps workbook.xml, styles.xml, relationship and
	// table parts, which are decoded whole.
	maxMetadataPartBytes int64 = 32 << 20
	// maxSharedStringsBytes caps the shared string table, which is held in
	// memory while sheets are read.
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
}

// Profiler profiles workbooks under one Config. It is safe for concurrent use.
type Profiler struct {
	roots         []string
	maxBytes      int64
	maxUnzipBytes int64
	maxRows       int
	maxSheets     int
}

// New validates cfg, applies defaults and resolves every root to an
// absolute path without symbolic links. A root must be an existing
// directory.
func New(cfg Config) (*Profiler, error) {
	if cfg.MaxBytes < 0 || cfg.MaxUnzipBytes < 0 || cfg.MaxRows < 0 || cfg.MaxSheets < 0 {
		return nil, errors.New("workbook limits must not be negative")
	}
	p := &Profiler{
		maxBytes:      orDefault(cfg.MaxBytes, DefaultMaxBytes),
		maxUnzipBytes: orDefault(cfg.MaxUnzipBytes, DefaultMaxUnzipBytes),
		maxRows:       orDefault(cfg.MaxRows, DefaultMaxRows),
		maxSheets:     orDefault(cfg.MaxSheets, DefaultMaxSheets),
	}
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
