// SPDX-License-Identifier: Apache-2.0

package workbook

import (
	"bytes"
	"encoding/binary"
	"encoding/xml"
	"fmt"
	"io"
	"strings"

	"github.com/richardlehane/mscfb"
)

// An OLE2 compound file with an .xlsx name is one of: an encrypted OOXML
// package (streams EncryptionInfo and EncryptedPackage), a package
// protected by rights management (an EncryptedPackage without
// EncryptionInfo), a legacy binary workbook (a Workbook or Book stream),
// or something else. Reading which one it is, and for an encrypted
// package its scheme, lets a refusal name the cause.
type compoundKind int

const (
	compoundOther compoundKind = iota
	compoundEncrypted
	compoundRightsManaged
	compoundLegacyXLS
)

// maxEncryptionInfoBytes bounds the EncryptionInfo stream read (Excel
// writes about 1 KiB).
const maxEncryptionInfoBytes = 64 << 10

// maxKeySpinCount bounds the hash rounds of an agile key derivation the
// gateway runs: Excel and LibreOffice write 100,000 (0.19 s of CPU a try
// with SHA-512); excelize would run up to 10,000,000 (19.5 s) on a file's
// say-so.
const maxKeySpinCount = 1_000_000

// compoundInfo is what a compound file holds.
type compoundInfo struct {
	kind   compoundKind
	scheme encryptionScheme // for compoundEncrypted
}

// encryptionScheme names how a package is encrypted and whether excelize
// can decrypt it.
type encryptionScheme struct {
	name      string // "agile encryption (AES-256, SHA512)"
	supported bool
	why       string // when not supported: what excelize lacks
}

// inspectCompound reads the directory of a compound file, and the
// EncryptionInfo stream when there is one. A file it cannot read is
// compoundOther.
func inspectCompound(raw []byte) (info compoundInfo) {
	defer func() {
		if recover() != nil {
			info = compoundInfo{}
		}
	}()
	doc, err := mscfb.New(bytes.NewReader(raw))
	if err != nil {
		return compoundInfo{}
	}
	var encInfo *mscfb.File
	var hasPackage, hasWorkbook bool
	for entry, err := doc.Next(); err == nil; entry, err = doc.Next() {
		switch entry.Name {
		case "EncryptionInfo":
			encInfo = entry
		case "EncryptedPackage":
			hasPackage = true
		case "Workbook", "Book":
			hasWorkbook = len(entry.Path) == 0
		}
	}
	switch {
	case hasPackage && encInfo != nil:
		return compoundInfo{kind: compoundEncrypted, scheme: readScheme(encInfo)}
	case hasPackage:
		return compoundInfo{kind: compoundRightsManaged}
	case hasWorkbook:
		return compoundInfo{kind: compoundLegacyXLS}
	}
	return compoundInfo{}
}

// readScheme reads the version and algorithms of an EncryptionInfo stream
// ([MS-OFFCRYPTO] 2.3.4.5, 2.3.4.10, 2.3.4.6).
func readScheme(stream *mscfb.File) encryptionScheme {
	if stream.Size < 8 || stream.Size > maxEncryptionInfoBytes {
		return encryptionScheme{name: fmt.Sprintf("an encryption whose description (EncryptionInfo) is %d bytes long", stream.Size)}
	}
	buf := make([]byte, stream.Size)
	if _, err := io.ReadFull(stream, buf); err != nil {
		return encryptionScheme{name: "an encryption whose description (EncryptionInfo) cannot be read"}
	}
	major, minor := binary.LittleEndian.Uint16(buf), binary.LittleEndian.Uint16(buf[2:])
	switch {
	case major == 4 && minor == 4:
		return agileScheme(buf[8:])
	case major >= 2 && major <= 4 && minor == 2:
		return standardScheme(buf)
	case (major == 3 || major == 4) && minor == 3:
		return encryptionScheme{name: "extensible encryption", why: "it uses a third-party cryptographic module"}
	}
	return encryptionScheme{name: fmt.Sprintf("an encryption of unknown version %d.%d", major, minor)}
}

// Standard encryption's algorithm ids ([MS-OFFCRYPTO] 2.3.2).
var standardAlgorithms = map[uint32]string{
	0x660E: "AES-128", 0x660F: "AES-192", 0x6610: "AES-256", 0x6801: "RC4",
}

// standardScheme reads a standard EncryptionInfo: version, flags, header
// size, then the header whose third field is the algorithm id.
func standardScheme(buf []byte) encryptionScheme {
	if len(buf) < 12+12 {
		return encryptionScheme{name: "standard encryption with a truncated description"}
	}
	algID := binary.LittleEndian.Uint32(buf[12+8:])
	alg, known := standardAlgorithms[algID]
	if !known {
		alg = fmt.Sprintf("algorithm 0x%04X", algID)
	}
	s := encryptionScheme{name: "standard encryption (" + alg + ")"}
	if strings.HasPrefix(alg, "AES") {
		s.supported = true
	} else {
		s.why = "excelize decrypts standard encryption with AES only"
	}
	return s
}

// agileCipher is how one key of an agile encryption is made and used.
type agileCipher struct {
	CipherAlgorithm string `xml:"cipherAlgorithm,attr"`
	CipherChaining  string `xml:"cipherChaining,attr"`
	HashAlgorithm   string `xml:"hashAlgorithm,attr"`
	KeyBits         int    `xml:"keyBits,attr"`
	BlockSize       int    `xml:"blockSize,attr"`
}

// agileDescription is the part of an agile EncryptionInfo's XML that
// decides whether excelize can decrypt it: the data's key (keyData) and
// the password's (the first key encryptor's encryptedKey).
type agileDescription struct {
	KeyData       agileCipher `xml:"keyData"`
	KeyEncryptors []struct {
		URI          string `xml:"uri,attr"`
		EncryptedKey struct {
			agileCipher
			SpinCount int `xml:"spinCount,attr"`
		} `xml:"encryptedKey"`
	} `xml:"keyEncryptors>keyEncryptor"`
}

// passwordKeyEncryptor is the key encryptor of a password (the other
// kind is a certificate's).
const passwordKeyEncryptor = "http://schemas.microsoft.com/office/2006/keyEncryptor/password"

// Hash algorithms excelize's agile decryption knows, lower-cased.
var agileHashes = map[string]bool{
	"md4": true, "md5": true, "ripemd-160": true, "sha1": true, "sha256": true, "sha384": true, "sha512": true,
}

func agileScheme(description []byte) encryptionScheme {
	var d agileDescription
	if err := xml.Unmarshal(description, &d); err != nil {
		return encryptionScheme{name: "agile encryption with a damaged description"}
	}
	k := d.KeyData
	s := encryptionScheme{name: fmt.Sprintf("agile encryption (%s-%d, %s)", k.CipherAlgorithm, k.KeyBits, k.HashAlgorithm)}
	if why := cipherLack(k); why != "" {
		s.why = why
		return s
	}
	if len(d.KeyEncryptors) == 0 || d.KeyEncryptors[0].URI != passwordKeyEncryptor {
		s.why = "its key is encrypted for a certificate, not with a password"
		return s
	}
	p := d.KeyEncryptors[0].EncryptedKey
	switch why := cipherLack(p.agileCipher); {
	case why != "":
		s.why = "its password key: " + why
	case !strings.EqualFold(p.HashAlgorithm, k.HashAlgorithm):
		// excelize derives the password's key with the data's hash.
		s.why = fmt.Sprintf("its password key is derived with %s and its data with %s, and excelize derives both with the data's",
			p.HashAlgorithm, k.HashAlgorithm)
	case p.SpinCount > maxKeySpinCount:
		s.why = fmt.Sprintf("its key derivation asks for %s hash rounds, over the gateway's bound of %s (Excel writes 100,000)",
			groupDigits(p.SpinCount), groupDigits(maxKeySpinCount))
	default:
		s.supported = true
	}
	return s
}

// cipherLack says what excelize lacks to use a key made this way, or "".
func cipherLack(c agileCipher) string {
	switch {
	case c.CipherAlgorithm != "AES" || c.BlockSize != 16:
		return "excelize decrypts agile encryption with AES only"
	case c.CipherChaining != "ChainingModeCBC":
		return "excelize decrypts agile encryption in CBC chaining only, not " + c.CipherChaining
	case !agileHashes[strings.ToLower(c.HashAlgorithm)]:
		return "excelize does not know the hash " + c.HashAlgorithm
	case c.KeyBits != 128 && c.KeyBits != 192 && c.KeyBits != 256:
		return fmt.Sprintf("a key of %d bits is not an AES key", c.KeyBits)
	}
	return ""
}
