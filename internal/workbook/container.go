// SPDX-License-Identifier: Apache-2.0

package workbook

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/xuri/excelize/v2"
)

var (
	// oleMagic starts an OLE2 compound file: an encrypted OOXML package
	// (or a legacy binary .xls wearing a new extension).
	oleMagic = []byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1}
	// zipMagic starts a zip local file header, as every OOXML package does.
	zipMagic = []byte("PK\x03\x04")
)

// container is an opened OOXML package whose parts can be streamed. It
// carries the read's memory budget and bounds how much reading its parts
// may inflate: each part of a sound package is read at most twice (a sheet
// is read again when its header is only known at the end), so more than
// twice the package's declared size, or more part openings than twice its
// parts, means parts are shared to multiply the work.
type container struct {
	name  string               // base name of the workbook, for messages
	parts map[string]*zip.File // by lower-cased, slash-separated part name
	file  *os.File             // nil when the package was decrypted into memory
	mem   *memoryBudget

	opens, maxOpens       int
	inflated, maxInflated uint64
}

// costOpenPart covers the decompressor of one open part.
const costOpenPart = 64 << 10

// decryptWorkFactor is the memory excelize takes to decrypt a package,
// in multiples of the file's size, beside the file itself (measured: about
// four times).
const decryptWorkFactor = 4

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
func (p *Profiler) openContainer(t *target, password string, mem *memoryBudget) (*container, error) {
	file, err := p.openTarget(t)
	if err != nil {
		return nil, err
	}
	zr, keepOpen, err := p.zipReader(file, t, password, mem)
	if err != nil {
		file.Close()
		return nil, err
	}
	c := &container{name: t.name, parts: indexParts(zr), mem: mem}
	if keepOpen {
		c.file = file
	} else {
		file.Close()
	}
	declared := declaredSize(zr)
	if declared > uint64(p.maxUnzipBytes) {
		c.Close()
		return nil, errUnzipLimit(t.name, p.maxUnzipBytes)
	}
	c.maxInflated = 2*declared + 1<<20
	c.maxOpens = 2*len(zr.File) + 16
	return c, nil
}

// zipReader recognises the file by its first bytes and returns a zip
// reader over it; keepOpen reports whether the reader still needs file.
func (p *Profiler) zipReader(file *os.File, t *target, password string, mem *memoryBudget) (zr *zip.Reader, keepOpen bool, err error) {
	head := make([]byte, len(oleMagic))
	if _, err := io.ReadFull(file, head); err != nil {
		return nil, false, errNotWorkbook(t.name, err)
	}
	switch {
	case bytes.Equal(head, oleMagic):
		zr, err := decryptPackage(file, t, password, mem)
		return zr, false, err
	case bytes.HasPrefix(head, zipMagic):
		zr, err := openZip(file, t.size, mem)
		if err != nil {
			return nil, false, zipFailure(err, errNotWorkbook(t.name, err))
		}
		return zr, true, nil
	}
	return nil, false, errNotWorkbook(t.name, nil)
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

// decryptPackage reads an OLE2 compound file whole (its size is already
// under the file limit) and decrypts the OOXML package inside it. A
// package that decrypts to something that is not a zip was decrypted with
// a missing or wrong password: the key derivation itself never fails. The
// file and excelize's work are reserved first; the decrypted package
// stays reserved for the read.
func decryptPackage(file *os.File, t *target, password string, mem *memoryBudget) (*zip.Reader, error) {
	work := (1 + decryptWorkFactor) * t.size
	if err := mem.reserve(work); err != nil {
		return nil, err
	}
	raw := make([]byte, t.size)
	if _, err := file.ReadAt(raw, 0); err != nil {
		mem.release(work)
		return nil, errUnreadable(t.name, err)
	}
	plain, err := safeDecrypt(raw, password)
	mem.release(work)
	if err := mem.reserve(int64(len(plain))); err != nil {
		return nil, err
	}
	switch {
	case errors.Is(err, excelize.ErrWorkbookPassword):
		return nil, errPassword(t.name)
	case errors.Is(err, excelize.ErrUnsupportedEncryptMechanism):
		return nil, errEncryption(t.name, err)
	case err != nil:
		// A damaged compound file, or one without an encrypted package
		// such as a legacy binary .xls.
		return nil, errNotWorkbook(t.name, err)
	}
	if !bytes.HasPrefix(plain, zipMagic) {
		return nil, errPassword(t.name)
	}
	zr, err := openZip(bytes.NewReader(plain), int64(len(plain)), mem)
	if err != nil {
		return nil, zipFailure(err, errPassword(t.name))
	}
	return zr, nil
}

// safeDecrypt runs excelize's decryption, turning a panic on a damaged
// compound file into an error.
func safeDecrypt(raw []byte, password string) (plain []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("decrypting workbook: %v", r)
		}
	}()
	return excelize.Decrypt(raw, &excelize.Options{Password: password})
}

func indexParts(zr *zip.Reader) map[string]*zip.File {
	parts := make(map[string]*zip.File, len(zr.File))
	for _, f := range zr.File {
		parts[normalizePartName(f.Name)] = f
	}
	return parts
}

// normalizePartName lower-cases a part name (OPC part names compare
// case-insensitively), uses forward slashes and drops a leading slash.
func normalizePartName(name string) string {
	name = strings.ReplaceAll(name, "\\", "/")
	return strings.ToLower(strings.TrimPrefix(name, "/"))
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

// part returns the named part (any case, with or without a leading slash).
func (c *container) part(name string) (*zip.File, bool) {
	f, ok := c.parts[normalizePartName(name)]
	return f, ok
}

// openPart streams a part of at most limit uncompressed bytes (0: no
// limit of its own), within the read's bounds on inflated bytes and part
// openings. The open decompressor is reserved until Close.
func (c *container) openPart(name string, limit int64) (io.ReadCloser, error) {
	f, ok := c.part(name)
	if !ok {
		return nil, errMalformed(c.name, fmt.Errorf("missing part %s", name))
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
		return nil, errMalformed(c.name, err)
	}
	return &partReader{rc: rc, c: c}, nil
}

// partReader counts what a part inflates against the read's bound.
type partReader struct {
	rc     io.ReadCloser
	c      *container
	closed bool
}

func (r *partReader) Read(b []byte) (int, error) {
	n, err := r.rc.Read(b)
	r.c.inflated += uint64(n)
	if r.c.inflated > r.c.maxInflated {
		return n, errReadVolume(r.c.name)
	}
	return n, err
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
