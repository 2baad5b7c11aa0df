// SPDX-License-Identifier: Apache-2.0

package workbook

import (
	"archive/zip"
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"
)

func smallBook(t *testing.T, name string) string {
	b := newBook(t)
	b.set("Sheet1", "A1", "a", "b").set("Sheet1", "A2", 1, 2)
	return b.save(name)
}

func writeFile(t *testing.T, dir, name string, data []byte) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// zipWith builds a zip holding the given parts.
func zipWith(t *testing.T, parts map[string]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, body := range parts {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(body))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func encryptedBook(t *testing.T, password string) string {
	b := newBook(t)
	b.set("Sheet1", "A1", "secret", "n").set("Sheet1", "A2", "x", 1)
	path := filepath.Join(t.TempDir(), "locked.xlsx")
	b.must(b.f.SaveAs(path, excelize.Options{Password: password}))
	return path
}

type errorCase struct {
	name     string
	cfg      Config
	path     string
	password string
	kind     Kind
	field    string
	message  string // substring of the agent-facing message
}

func runErrorCases(t *testing.T, cases []errorCase) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			_, err := newProfiler(t, tt.cfg).Profile(context.Background(), tt.path, tt.password)
			e, ok := AsError(err)
			if !ok {
				t.Fatalf("err = %v (%T), want *Error", err, err)
			}
			if e.Kind != tt.kind || e.Field != tt.field || !strings.Contains(e.Message, tt.message) {
				t.Errorf("got {%v %q %q}, want {%v %q ~%q}", e.Kind, e.Field, e.Message, tt.kind, tt.field, tt.message)
			}
			if tt.password != "" && strings.Contains(e.Error(), tt.password) {
				t.Errorf("message %q echoes the password", e.Message)
			}
		})
	}
}

func TestProfilePathErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	good := smallBook(t, "good.xlsx")
	text := writeFile(t, dir, "notes.xlsx", []byte("just some text, not a zip"))
	folder := filepath.Join(dir, "folder.xlsx")
	if err := os.Mkdir(folder, 0o700); err != nil {
		t.Fatal(err)
	}
	runErrorCases(t, []errorCase{
		{"csv extension", Config{}, "/data/report.csv", "", KindInvalidInput, FieldPath,
			"only .xlsx and .xlsm workbooks are supported; save as .xlsx"},
		{"legacy xls", Config{}, "/data/report.xls", "", KindInvalidInput, FieldPath, "save as .xlsx"},
		{"relative path", Config{}, "data/report.xlsx", "", KindInvalidInput, FieldPath, "absolute"},
		{"missing file", Config{}, filepath.Join(dir, "missing.xlsx"), "", KindNotFound, FieldPath,
			"missing.xlsx: workbook not found"},
		{"parent is a file", Config{}, filepath.Join(good, "x.xlsx"), "", KindNotFound, FieldPath,
			"x.xlsx: workbook not found"},
		{"directory", Config{}, folder, "", KindUnavailable, FieldPath, "not a valid .xlsx/.xlsm workbook"},
		{"text renamed .xlsx", Config{}, text, "", KindUnavailable, FieldPath, "notes.xlsx: file is not a valid"},
		{"over the size limit", Config{MaxBytes: 100}, good, "", KindUnavailable, FieldPath,
			"over the gateway's file size limit of 100 bytes (--workbook-max-bytes)"},
	})
}

func TestProfileRoots(t *testing.T) {
	t.Parallel()
	root, outside := t.TempDir(), t.TempDir()
	inside := smallBook(t, "in.xlsx")
	if err := os.Rename(inside, filepath.Join(root, "in.xlsx")); err != nil {
		t.Fatal(err)
	}
	secret := filepath.Join(outside, "secret.xlsx")
	if err := os.Rename(smallBook(t, "secret.xlsx"), secret); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(root, "link.xlsx")
	if err := os.Symlink(secret, link); err != nil {
		t.Fatal(err)
	}
	cfg := Config{Roots: []string{root}}
	runErrorCases(t, []errorCase{
		{"outside", cfg, secret, "", KindUnauthorized, FieldPath, "secret.xlsx: workbook is outside"},
		{"dot-dot escape", cfg, filepath.Join(root, "..", filepath.Base(outside), "secret.xlsx"), "",
			KindUnauthorized, FieldPath, "outside"},
		{"symlink escape", cfg, link, "", KindUnauthorized, FieldPath, "outside"},
		{"missing outside is not revealed", cfg, filepath.Join(outside, "nope.xlsx"), "",
			KindUnauthorized, FieldPath, "outside"},
		{"missing inside", cfg, filepath.Join(root, "nope.xlsx"), "", KindNotFound, FieldPath, "not found"},
	})
	wb := mustProfile(t, newProfiler(t, cfg), filepath.Join(root, "sub", "..", "in.xlsx"), "")
	want, _ := filepath.EvalSymlinks(filepath.Join(root, "in.xlsx"))
	if wb.Path != want {
		t.Errorf("path = %q, want %q", wb.Path, want)
	}
}

func TestProfileExpandsHome(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	if err := os.Rename(smallBook(t, "mine.xlsx"), filepath.Join(home, "mine.xlsx")); err != nil {
		t.Fatal(err)
	}
	wb := mustProfile(t, newProfiler(t, Config{Roots: []string{"~"}}), "~/mine.xlsx", "")
	want, _ := filepath.EvalSymlinks(filepath.Join(home, "mine.xlsx"))
	if wb.Path != want {
		t.Errorf("path = %q, want %q", wb.Path, want)
	}
}

func TestProfileLockFiles(t *testing.T) {
	t.Parallel()
	for _, lock := range []string{"~$held.xlsx", ".~lock.held.xlsx#"} {
		t.Run(lock, func(t *testing.T) {
			path := smallBook(t, "held.xlsx")
			writeFile(t, filepath.Dir(path), lock, []byte("owner"))
			runErrorCases(t, []errorCase{{"held", Config{}, path, "", KindUnavailable, FieldPath,
				"held.xlsx: workbook is open in another program (lock file " + lock}})
		})
	}
}

func TestProfilePasswords(t *testing.T) {
	t.Parallel()
	path := encryptedBook(t, "s3cret pass ")
	runErrorCases(t, []errorCase{
		{"missing", Config{}, path, "", KindInvalidInput, FieldPassword,
			"locked.xlsx: workbook password is missing or incorrect"},
		{"wrong", Config{}, path, "hunter2", KindInvalidInput, FieldPassword,
			"locked.xlsx: workbook password is missing or incorrect"},
		{"trimmed is wrong", Config{}, path, "s3cret pass", KindInvalidInput, FieldPassword, "missing or incorrect"},
	})
	wb := mustProfile(t, newProfiler(t, Config{}), path, "s3cret pass ")
	if got := wb.Sheets[0].Headers; len(got) != 2 || got[0] != "secret" {
		t.Errorf("headers = %q", got)
	}
	// A password given for an unprotected workbook is ignored.
	mustProfile(t, newProfiler(t, Config{}), smallBook(t, "open.xlsx"), "unused")
}

func TestProfileAcceptsExtensionsInAnyCase(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"Book.XLSX", "macros.xlsm", "Macros.XLSM"} {
		path := filepath.Join(t.TempDir(), name)
		if err := os.Rename(smallBook(t, "plain.xlsx"), path); err != nil {
			t.Fatal(err)
		}
		if wb := mustProfile(t, newProfiler(t, Config{}), path, ""); len(wb.Sheets) != 1 {
			t.Errorf("%s: %d sheets", name, len(wb.Sheets))
		}
	}
}

func TestProfileContainerErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	plainZip := writeFile(t, dir, "plain.xlsx", zipWith(t, map[string]string{"readme.txt": "hello"}))
	oleNotEncrypted := writeFile(t, dir, "legacy.xlsx", append(append([]byte{}, oleMagic...), make([]byte, 600)...))
	runErrorCases(t, []errorCase{
		{"zip without workbook", Config{}, plainZip, "", KindUnavailable, FieldPath,
			"plain.xlsx: file is a zip package but not a workbook: it has no workbook part"},
		{"compound file that is not an encrypted workbook", Config{}, oleNotEncrypted, "", KindUnavailable, FieldPath,
			"legacy.xlsx: file is not a valid"},
		{"uncompressed limit", Config{MaxUnzipBytes: 1000}, smallBook(t, "big.xlsx"), "", KindUnavailable, FieldPath,
			"uncompressed size limit of 1000 bytes"},
	})
}

// TestProfileDamagedSheetIsSkipped reads a workbook whose only sheet has
// a bad cell reference: the sheet is listed by name, and a warning names
// its part and what is wrong with it.
func TestProfileDamagedSheetIsSkipped(t *testing.T) {
	t.Parallel()
	path := smallBook(t, "broken.xlsx")
	rewritePart(t, path, "xl/worksheets/sheet1.xml", func(s string) string {
		return strings.Replace(s, `<c r="A2"`, `<c r="A0"`, 1)
	})
	wb := mustProfile(t, newProfiler(t, Config{}), path, "")
	want := `Sheet1: not profiled: its part xl/worksheets/sheet1.xml is damaged: cell reference "A0": invalid row; the sheet is listed by name only`
	if !wb.Sheets[0].Skipped || !hasWarning(wb, want) {
		t.Errorf("sheet %+v, warnings %q; want it skipped with %q", wb.Sheets[0], wb.Warnings, want)
	}
}

// TestProfileZipBomb checks that a sheet that inflates far past the limit
// is refused by the declared size, and that one whose directory lies about
// its size is read no further than the declared size: archive/zip stops
// there, and the sheet is listed as damaged.
func TestProfileZipBomb(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	huge := bombSheet(4 << 20)
	honest := writeFile(t, dir, "honest.xlsx", bombBook(t, huge, false))
	lying := writeFile(t, dir, "lying.xlsx", bombBook(t, huge, true))
	if info, _ := os.Stat(honest); info.Size() > 64<<10 {
		t.Fatalf("bomb is %d bytes, want a tiny file", info.Size())
	}
	runErrorCases(t, []errorCase{
		{"declared", Config{MaxUnzipBytes: 1 << 20}, honest, "", KindUnavailable, FieldPath, "uncompressed size limit of 1 MiB"},
	})
	wb := mustProfile(t, newProfiler(t, Config{MaxUnzipBytes: 1 << 20}), lying, "")
	want := "S: not profiled: its part xl/worksheets/sheet1.xml is damaged: its zip entry is not valid; the sheet is listed by name only"
	if !wb.Sheets[0].Skipped || !hasWarning(wb, want) {
		t.Errorf("lying directory: sheet %+v, warnings %q; want it skipped with %q", wb.Sheets[0], wb.Warnings, want)
	}
}

// TestProfileUnsupportedEncryption patches the EncryptionInfo version of
// a package excelize encrypted (standard encryption, 3.2) to the
// extensible one (3.3), which excelize cannot decrypt.
func TestProfileUnsupportedEncryption(t *testing.T) {
	t.Parallel()
	path := encryptedBook(t, "pw")
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	standard := []byte("\x03\x00\x02\x00\x24\x00\x00\x00")
	at := bytes.Index(raw, standard)
	if at < 0 {
		t.Fatal("no standard EncryptionInfo header found")
	}
	copy(raw[at:], "\x03\x00\x03\x00")
	patched := writeFile(t, t.TempDir(), "extensible.xlsx", raw)
	runErrorCases(t, []errorCase{
		{"extensible", Config{}, patched, "pw", KindUnavailable, FieldPath,
			"extensible.xlsx: workbook is protected with extensible encryption, which the gateway cannot decrypt"},
	})
}

// TestProfileEncryptedWorkbookIsBudgeted checks decrypting is reserved
// first: a budget smaller than the decryption needs refuses the read.
func TestProfileEncryptedWorkbookIsBudgeted(t *testing.T) {
	t.Parallel()
	path := encryptedBook(t, "pw")
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	runErrorCases(t, []errorCase{
		{"budget under the decryption", Config{MaxMemory: 2 * info.Size()}, path, "pw", KindUnavailable, FieldPath,
			"needs more memory than the gateway allows for one read"},
	})
	mustProfile(t, newProfiler(t, Config{MaxMemory: 1 << 20}), path, "pw")
}
