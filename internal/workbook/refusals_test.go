// SPDX-License-Identifier: Apache-2.0

package workbook

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"
)

const (
	passwordKeyURI    = "http://schemas.microsoft.com/office/2006/keyEncryptor/password"
	certificateKeyURI = "http://schemas.microsoft.com/office/2006/keyEncryptor/certificate"
	agileAES256       = `blockSize="16" keyBits="256" hashSize="64" cipherAlgorithm="AES" cipherChaining="ChainingModeCBC" hashAlgorithm="SHA512"`
)

// encryptedPackageStream is an EncryptedPackage stream: its size, then
// what would be the encrypted bytes.
var encryptedPackageStream = append([]byte{0, 16, 0, 0, 0, 0, 0, 0}, make([]byte, 4096)...)

// standardWithAlgorithm rewrites the algorithm id of a package excelize
// encrypted with standard encryption (AES-128).
func standardWithAlgorithm(t *testing.T, algID []byte) []byte {
	t.Helper()
	raw, err := os.ReadFile(encryptedBook(t, "pw"))
	if err != nil {
		t.Fatal(err)
	}
	at := bytes.Index(raw, []byte("\x03\x00\x02\x00\x24\x00\x00\x00"))
	if at < 0 || !bytes.Equal(raw[at+20:at+24], []byte{0x0E, 0x66, 0, 0}) {
		t.Fatal("no standard AES-128 EncryptionInfo found")
	}
	copy(raw[at+20:], algID)
	return raw
}

// TestRefusalsNameTheCause reads packages the gateway cannot profile, of
// every kind of cause it knows, and checks that the refusal names it:
// which part, which encryption scheme, what the file is. Issue 40, row 6:
// they read "damaged or malformed", and an encryption excelize cannot
// decrypt "not an Office Open XML zip package".
func TestRefusalsNameTheCause(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	compound := func(name string, streams ...cfbStream) string {
		return writeFile(t, dir, name, compoundFile(streams...))
	}
	agile := func(name, keyData, keyURI string, spinCount int) string {
		return compound(name, cfbStream{"EncryptionInfo", agileEncryptionInfo(keyData, keyURI, spinCount)},
			cfbStream{"EncryptedPackage", encryptedPackageStream})
	}
	book := sheetsPackage([2]string{"Data", inlineRows([]any{"a", "b"}, []any{1, 2})})
	cases := []errorCase{
		{"agile with DES", Config{}, agile("des.xlsx", `blockSize="8" keyBits="64" hashSize="20" cipherAlgorithm="DES" `+
			`cipherChaining="ChainingModeCBC" hashAlgorithm="SHA1"`, passwordKeyURI, 100000), "pw", KindUnavailable, FieldPath,
			"des.xlsx: workbook is protected with agile encryption (DES-64, SHA1), which the gateway cannot decrypt (excelize decrypts agile encryption with AES only)"},
		{"agile in CFB chaining", Config{}, agile("cfb.xlsx", strings.Replace(agileAES256, "ChainingModeCBC", "ChainingModeCFB", 1),
			passwordKeyURI, 100000), "pw", KindUnavailable, FieldPath, "agile encryption (AES-256, SHA512), which the gateway cannot decrypt (excelize decrypts agile encryption in CBC chaining only, not ChainingModeCFB)"},
		{"agile with a password key of another hash", Config{}, agile("mixed.xlsx", `blockSize="16" keyBits="128" hashSize="20" `+
			`cipherAlgorithm="AES" cipherChaining="ChainingModeCBC" hashAlgorithm="SHA1"`, passwordKeyURI, 100000), "Test001!!", KindUnavailable, FieldPath,
			"mixed.xlsx: workbook is protected with agile encryption (AES-128, SHA1), which the gateway cannot decrypt " +
				"(its password key is derived with SHA512 and its data with SHA1, and excelize derives both with the data's)"},
		{"agile for a certificate", Config{}, agile("cert.xlsx", agileAES256, certificateKeyURI, 100000), "", KindUnavailable, FieldPath,
			"cert.xlsx: workbook is protected with agile encryption (AES-256, SHA512), which the gateway cannot decrypt (its key is encrypted for a certificate, not with a password)"},
		{"agile with ten million rounds", Config{}, agile("spin.xlsx", agileAES256, passwordKeyURI, 10_000_000), "pw", KindUnavailable, FieldPath,
			"its key derivation asks for 10,000,000 hash rounds, over the gateway's bound of 1,000,000"},
		{"standard with RC4", Config{}, writeFile(t, dir, "rc4.xlsx", standardWithAlgorithm(t, []byte{0x01, 0x68, 0, 0})), "pw",
			KindUnavailable, FieldPath, "rc4.xlsx: workbook is protected with standard encryption (RC4), which the gateway cannot decrypt"},
		{"rights management", Config{}, compound("irm.xlsx", cfbStream{"EncryptedPackage", encryptedPackageStream}), "", KindUnavailable, FieldPath,
			"irm.xlsx: workbook is protected with rights management (IRM)"},
		{"legacy workbook", Config{}, compound("old.xlsx", cfbStream{"Workbook", []byte{0x09, 0x08, 0x10, 0}}), "", KindUnavailable, FieldPath,
			"old.xlsx: file is a legacy Excel 97-2003 workbook (.xls) with an .xlsx name"},
		{"another compound file", Config{}, compound("doc.xlsx", cfbStream{"WordDocument", []byte{0xEC, 0xA5}}), "", KindUnavailable, FieldPath,
			"doc.xlsx: file is not a valid .xlsx/.xlsm workbook: it is an OLE compound file that holds neither an encrypted workbook nor a workbook"},
		{"corrupt shared strings", Config{}, book.with(zipEntry{name: "xl/sharedStrings.xml", body: `<sst></sst>`,
			raw: []byte{0xff, 0xff, 0xff, 0xff, 0xff}, method: 8}).write(t, "sst.xlsx"), "", KindUnavailable, FieldPath,
			"sst.xlsx: workbook is damaged and cannot be profiled: part xl/sharedStrings.xml: its compressed data is corrupt"},
		{"styles compressed with an unknown method", Config{}, book.with(zipEntry{name: "xl/styles.xml", body: `<styleSheet/>`,
			raw: []byte(`<styleSheet/>`), method: 99}).write(t, "method.xlsx"), "", KindUnavailable, FieldPath,
			"method.xlsx: workbook is damaged and cannot be profiled: part xl/styles.xml: it is compressed with a method other than deflate"},
		{"unterminated workbook part", Config{}, book.edit(t, "xl/workbook.xml", func(s string) string {
			return strings.TrimSuffix(s, "</sheets></workbook>") + `<definedNames><definedName name="x`
		}).write(t, "cut.xlsx"), "", KindUnavailable, FieldPath,
			"cut.xlsx: workbook is damaged and cannot be profiled: part xl/workbook.xml: its XML ends inside a tag, comment or CDATA section"},
	}
	runErrorCases(t, cases)
}

// TestExcelsDefaultPasswordIsTried opens workbooks Excel encrypted with
// its default password VelvetSweatshop (protected against changes only),
// which Excel opens without asking: so does the gateway, and the answer
// says so. Issue 40, row 6: they were refused as "password is missing or
// incorrect".
func TestExcelsDefaultPasswordIsTried(t *testing.T) {
	t.Parallel()
	path := encryptedBook(t, "VelvetSweatshop")
	const note = "workbook is encrypted with Excel's default password (VelvetSweatshop), which Excel opens without asking; the gateway opened it the same way"
	for _, password := range []string{"", "a password that is not needed"} {
		wb := mustProfile(t, newProfiler(t, Config{}), path, password)
		if got := wb.Sheets[0].Headers; len(got) != 2 || got[0] != "secret" {
			t.Errorf("password %q: headers %q", password, got)
		}
		if !hasWarning(wb, note) {
			t.Errorf("password %q: warnings %q lack %q", password, wb.Warnings, note)
		}
	}
	// A workbook with a password of its own still needs it.
	runErrorCases(t, []errorCase{{"own password", Config{}, encryptedBook(t, "own"), "", KindInvalidInput, FieldPassword,
		"locked.xlsx: workbook password is missing or incorrect"}})
	wb := mustProfile(t, newProfiler(t, Config{}), encryptedBook(t, "own"), "own")
	if hasWarning(wb, note) {
		t.Errorf("a workbook opened with its own password says %q", note)
	}
}

// TestEncryptedBookOpensAfterTheDefault makes sure the default password
// is no more than a first try: a workbook excelize encrypted with another
// password opens with it.
func TestEncryptedBookOpensAfterTheDefault(t *testing.T) {
	t.Parallel()
	b := newBook(t)
	b.set("Sheet1", "A1", "k", "v")
	path := filepath.Join(t.TempDir(), "two.xlsx")
	b.must(b.f.SaveAs(path, excelize.Options{Password: "second"}))
	if wb := mustProfile(t, newProfiler(t, Config{}), path, "second"); wb.Sheets[0].Headers[0] != "k" {
		t.Errorf("headers %q", wb.Sheets[0].Headers)
	}
}
