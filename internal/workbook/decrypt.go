// SPDX-License-Identifier: Apache-2.0

package workbook

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"os"

	"github.com/xuri/excelize/v2"
)

// excelDefaultPassword is the password Excel encrypts a workbook with
// when it is protected only against changes ("Protect Workbook" without
// an open password, or a read-only recommendation); Excel opens such a
// file without asking, and so does the gateway.
const excelDefaultPassword = "VelvetSweatshop"

// decryptWorkFactor is the memory excelize takes to decrypt a package,
// in multiples of the file's size, beside the file itself (measured: about
// four times).
const decryptWorkFactor = 4

// decryptPackage reads an OLE2 compound file whole (its size is already
// under the file limit), names what it holds when that is not an
// encrypted package excelize can decrypt, and decrypts the OOXML package
// inside: with Excel's default password first when the caller gave none
// (Excel opens such a file without asking), else with the caller's, then
// the default. The file and excelize's work are reserved first; the
// decrypted package stays reserved for the read.
func (p *Profiler) decryptPackage(file *os.File, r *read, c *container) (*zip.Reader, error) {
	name, size := r.target.name, r.target.size
	work := (1 + decryptWorkFactor) * size
	if err := r.mem.reserve(work); err != nil {
		return nil, err
	}
	raw := make([]byte, size)
	if _, err := file.ReadAt(raw, 0); err != nil {
		r.mem.release(work)
		return nil, errUnreadable(name, err)
	}
	if err := checkCompound(name, raw); err != nil {
		r.mem.release(work)
		return nil, err
	}
	r.at.stage = stageDecrypt
	plain, usedDefault, err := p.decryptWithin(r, raw)
	r.mem.release(work)
	if err != nil {
		return nil, err
	}
	if err := r.mem.reserve(int64(len(plain))); err != nil {
		return nil, err
	}
	zr, err := openZip(bytes.NewReader(plain), int64(len(plain)), r.mem)
	if err != nil {
		return nil, zipFailure(err, errZipDirectory(name, err))
	}
	if usedDefault {
		c.notes.addf("workbook is encrypted with Excel's default password (%s), which Excel opens without asking; "+
			"the gateway opened it the same way", excelDefaultPassword)
	}
	r.at.stage = stageOpen
	return zr, nil
}

// checkCompound refuses a compound file that is not an encrypted package
// excelize can decrypt, naming what it is.
func checkCompound(name string, raw []byte) error {
	info := inspectCompound(raw)
	switch info.kind {
	case compoundLegacyXLS:
		return errLegacyXLS(name)
	case compoundRightsManaged:
		return errRightsManaged(name)
	case compoundOther:
		return errCompoundNotWorkbook(name)
	}
	if !info.scheme.supported {
		return errEncryption(name, info.scheme)
	}
	return nil
}

// decrypted is the outcome of decrypting with the passwords to try.
type decrypted struct {
	plain       []byte
	usedDefault bool
	err         error
}

// decryptWithin decrypts in a goroutine of its own, so that the read can
// stop at its deadline while excelize, which cannot be interrupted, works
// on; that goroutine keeps the read's slot until it ends.
func (p *Profiler) decryptWithin(r *read, raw []byte) ([]byte, bool, error) {
	passwords := []string{excelDefaultPassword}
	if r.password != "" && r.password != excelDefaultPassword {
		passwords = []string{r.password, excelDefaultPassword}
	}
	result := make(chan decrypted, 1)
	done := make(chan struct{})
	r.slot.join()
	go func() {
		defer r.slot.release()
		defer close(done)
		if p.duringDecrypt != nil {
			p.duringDecrypt()
		}
		result <- decryptFirst(raw, passwords)
	}()
	if err := r.clock.await(done); err != nil {
		return nil, false, err
	}
	out := <-result
	if out.err != nil {
		return nil, false, decryptFailure(r.target.name, out.err)
	}
	return out.plain, out.usedDefault, nil
}

// errWrongPassword is a password that does not decrypt the package.
var errWrongPassword = errors.New("the password does not decrypt the package")

// decryptFirst tries the passwords in order and returns the first
// package that decrypts to a zip.
func decryptFirst(raw []byte, passwords []string) decrypted {
	for _, password := range passwords {
		plain, err := safeDecrypt(raw, password)
		switch {
		case errors.Is(err, excelize.ErrWorkbookPassword):
			continue
		case err != nil:
			return decrypted{err: err}
		case bytes.HasPrefix(plain, zipMagic):
			return decrypted{plain: plain, usedDefault: password == excelDefaultPassword}
		}
		// A key derivation never fails: a package that decrypts to
		// something else than a zip was decrypted with a wrong password.
	}
	return decrypted{err: errWrongPassword}
}

// decryptFailure turns what excelize reported into the refusal: a wrong
// or missing password, or a package excelize could not decrypt.
func decryptFailure(name string, err error) error {
	if errors.Is(err, errWrongPassword) {
		return errPassword(name)
	}
	return pathError(KindUnavailable, err,
		"%s: workbook is encrypted, but its encrypted package is damaged and cannot be decrypted", name)
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
