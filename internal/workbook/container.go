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

// container is an opened OOXML package whose parts can be streamed.
type container struct {
	name  string               // base name of the workbook, for messages
	parts map[string]*zip.File // by lower-cased, slash-separated part name
	file  *os.File             // nil when the package was decrypted into memory
}

// Close releases the underlying file.
func (c *container) Close() error {
	if c.file == nil {
		return nil
	}
	return c.file.Close()
}

// openContainer opens the workbook file, decrypting it when it is a
// password-protected package, and checks the uncompressed size limit.
func (p *Profiler) openContainer(t *target, password string) (*container, error) {
	file, err := os.Open(t.resolved)
	if err != nil {
		return nil, errUnreadable(t.name, err)
	}
	zr, keepOpen, err := p.zipReader(file, t, password)
	if err != nil {
		file.Close()
		return nil, err
	}
	c := &container{name: t.name, parts: indexParts(zr)}
	if keepOpen {
		c.file = file
	} else {
		file.Close()
	}
	if declaredSize(zr) > uint64(p.maxUnzipBytes) {
		c.Close()
		return nil, errUnzipLimit(t.name, p.maxUnzipBytes)
	}
	return c, nil
}

// zipReader recognises the file by its first bytes and returns a zip
// reader over it; keepOpen reports whether the reader still needs file.
func (p *Profiler) zipReader(file *os.File, t *target, password string) (zr *zip.Reader, keepOpen bool, err error) {
	head := make([]byte, len(oleMagic))
	if _, err := io.ReadFull(file, head); err != nil {
		return nil, false, errNotWorkbook(t.name, err)
	}
	switch {
	case bytes.Equal(head, oleMagic):
		zr, err := decryptPackage(file, t, password)
		return zr, false, err
	case bytes.HasPrefix(head, zipMagic):
		zr, err := zip.NewReader(file, t.size)
		if err != nil {
			return nil, false, errNotWorkbook(t.name, err)
		}
		return zr, true, nil
	}
	return nil, false, errNotWorkbook(t.name, nil)
}

// decryptPackage reads an OLE2 compound file whole (its size is already
// under the file limit) and decrypts the OOXML package inside it. A
// package that decrypts to something that is not a zip was decrypted with
// a missing or wrong password: the key derivation itself never fails.
func decryptPackage(file *os.File, t *target, password string) (*zip.Reader, error) {
	raw := make([]byte, t.size)
	if _, err := file.ReadAt(raw, 0); err != nil {
		return nil, errUnreadable(t.name, err)
	}
	plain, err := safeDecrypt(raw, password)
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
	zr, err := zip.NewReader(bytes.NewReader(plain), int64(len(plain)))
	if err != nil {
		return nil, errPassword(t.name)
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

// readPart reads a whole part of at most limit uncompressed bytes.
func (c *container) readPart(name string, limit int64) ([]byte, error) {
	f, ok := c.part(name)
	if !ok {
		return nil, errMalformed(c.name, fmt.Errorf("missing part %s", name))
	}
	if f.UncompressedSize64 > uint64(limit) {
		return nil, errPartLimit(c.name, name, limit)
	}
	rc, err := f.Open()
	if err != nil {
		return nil, errMalformed(c.name, err)
	}
	defer rc.Close()
	data, err := io.ReadAll(io.LimitReader(rc, limit+1))
	if err != nil {
		return nil, errMalformed(c.name, err)
	}
	if int64(len(data)) > limit {
		return nil, errPartLimit(c.name, name, limit)
	}
	return data, nil
}

// openPart streams a part.
func (c *container) openPart(name string) (io.ReadCloser, error) {
	f, ok := c.part(name)
	if !ok {
		return nil, errMalformed(c.name, fmt.Errorf("missing part %s", name))
	}
	rc, err := f.Open()
	if err != nil {
		return nil, errMalformed(c.name, err)
	}
	return rc, nil
}
