// SPDX-License-Identifier: Apache-2.0

package workbook

import (
	"archive/zip"
	"bytes"
	"io"
	"os"
)

var (
	// oleMagic starts an OLE2 compound file: an encrypted OOXML package
	// (or a legacy binary .xls wearing a new extension).
	oleMagic = []byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1}
	// zipMagic starts a zip local file header, as every OOXML package does.
	zipMagic = []byte("PK\x03\x04")
)

// container is an opened OOXML package whose parts can be streamed. It
// carries the read's memory budget and clock, and bounds how much reading
// its parts may inflate: each part of a sound package is read at most
// twice (a sheet is read again when its header is only known at the end),
// so more than twice the package's declared size, or more part openings
// than twice its parts, means parts are shared to multiply the work.
type container struct {
	name  string // base name of the workbook, for messages
	parts partIndex
	file  *os.File // nil when the package was decrypted into memory
	mem   *memoryBudget
	clock *readClock
	at    *progress

	opens, maxOpens       int
	inflated, maxInflated uint64

	// notes are workbook warnings the package itself calls for.
	notes       warnings
	doctypeSeen map[string]bool // parts with a document type declaration
}

// costOpenPart covers the decompressor of one open part.
const costOpenPart = 64 << 10

// Close releases the underlying file.
func (c *container) Close() error {
	if c.file == nil {
		return nil
	}
	return c.file.Close()
}

// openContainer opens the workbook file, decrypting it when it is a
// password-protected package, and checks the uncompressed size limit.
// The package's directory (and a decrypted package) is reserved against
// mem.
func (p *Profiler) openContainer(r *read) (*container, error) {
	file, err := p.openTarget(r.target)
	if err != nil {
		return nil, err
	}
	c := &container{name: r.target.name, mem: r.mem, clock: r.clock, at: r.at}
	zr, keepOpen, err := p.zipReader(file, r, c)
	if err != nil {
		file.Close()
		return nil, err
	}
	c.parts = indexParts(zr)
	if keepOpen {
		c.file = file
	} else {
		file.Close()
	}
	declared := declaredSize(zr)
	if declared > uint64(p.maxUnzipBytes) {
		c.Close()
		return nil, errUnzipLimit(c.name, p.maxUnzipBytes)
	}
	c.maxInflated = 2*declared + 1<<20
	c.maxOpens = 2*len(zr.File) + 16
	return c, nil
}

// zipReader recognises the file by its first bytes and returns a zip
// reader over it; keepOpen reports whether the reader still needs file.
func (p *Profiler) zipReader(file *os.File, r *read, c *container) (zr *zip.Reader, keepOpen bool, err error) {
	name := r.target.name
	head := make([]byte, len(oleMagic))
	if _, err := io.ReadFull(file, head); err != nil {
		return nil, false, errNotWorkbook(name, err)
	}
	switch {
	case bytes.Equal(head, oleMagic):
		zr, err := p.decryptPackage(file, r, c)
		return zr, false, err
	case bytes.HasPrefix(head, zipMagic):
		zr, err := openZip(file, r.target.size, r.mem)
		if err != nil {
			return nil, false, zipFailure(err, errZipDirectory(name, err))
		}
		return zr, true, nil
	}
	return nil, false, errNotWorkbook(name, nil)
}

// declaredSize sums the uncompressed sizes the zip directory declares,
// saturating instead of overflowing. archive/zip refuses to inflate a
// part past its declared size, so the sum bounds what reading can produce.
func declaredSize(zr *zip.Reader) uint64 {
	var total uint64
	for _, f := range zr.File {
		if total+f.UncompressedSize64 < total {
			return ^uint64(0)
		}
		total += f.UncompressedSize64
	}
	return total
}

// openZip reads a package's directory after reserving what it costs. Its
// error is the budget's refusal or archive/zip's own.
func openZip(r io.ReaderAt, size int64, mem *memoryBudget) (*zip.Reader, error) {
	reserved := zipDirectoryCost(r, size)
	if err := mem.reserve(reserved); err != nil {
		return nil, err
	}
	zr, err := zip.NewReader(r, size)
	if err != nil {
		return nil, err
	}
	// Should archive/zip have found more entries than the bound allowed
	// for, account for them now.
	if actual := int64(len(zr.File)) * costZipEntry; actual > reserved {
		if err := mem.reserve(actual - reserved); err != nil {
			return nil, err
		}
	}
	return zr, nil
}

// zipFailure passes the budget's refusal through and turns archive/zip's
// errors into fallback.
func zipFailure(err error, fallback *Error) error {
	if e, ok := AsError(err); ok {
		return e
	}
	return fallback
}

// openPart streams a part of at most limit uncompressed bytes (0: no
// limit of its own), within the read's bounds on inflated bytes and part
// openings and its clock. The open decompressor is reserved until Close.
// A part the package lacks is errPartMissing.
func (c *container) openPart(name string, limit int64) (io.ReadCloser, error) {
	f, err := c.parts.lookup(c.name, name)
	if err != nil {
		return nil, err
	}
	if limit > 0 && f.UncompressedSize64 > uint64(limit) {
		return nil, errPartLimit(c.name, name, limit)
	}
	if c.opens++; c.opens > c.maxOpens {
		return nil, errReadVolume(c.name)
	}
	if err := c.mem.reserve(costOpenPart); err != nil {
		return nil, err
	}
	rc, err := f.Open()
	if err != nil {
		c.mem.release(costOpenPart)
		return nil, err
	}
	return &partReader{rc: rc, c: c, name: name}, nil
}

// hasPart reports whether the package holds a part of that name.
func (c *container) hasPart(name string) bool {
	return name != "" && c.parts.has(name)
}

// partReader counts what a part inflates against the read's bound, and
// checks the read's clock before each read.
type partReader struct {
	rc     io.ReadCloser
	c      *container
	name   string
	closed bool
}

func (r *partReader) Read(b []byte) (int, error) {
	if err := r.c.clock.check(); err != nil {
		return 0, err
	}
	n, err := r.rc.Read(b)
	r.c.inflated += uint64(n)
	if r.c.inflated > r.c.maxInflated {
		return n, errReadVolume(r.c.name)
	}
	return n, err
}

// noteDoctype records that the part declares a document type: its
// entities are not expanded, and the profile says so once per part.
func (r *partReader) noteDoctype() {
	if r.c.doctypeSeen[r.name] {
		return
	}
	if r.c.doctypeSeen == nil {
		r.c.doctypeSeen = make(map[string]bool)
	}
	r.c.doctypeSeen[r.name] = true
	r.c.notes.addf("part %s declares a document type (DTD); the gateway does not expand the entities a DTD declares, "+
		"so a text that uses one shows the reference as written, such as &name;", r.name)
}

// Close closes the part and releases its decompressor's reservation.
func (r *partReader) Close() error {
	if r.closed {
		return nil
	}
	r.closed = true
	r.c.mem.release(costOpenPart)
	return r.rc.Close()
}
