// SPDX-License-Identifier: Apache-2.0

package workbook

import (
	"bytes"
	"encoding/binary"
	"strconv"
	"unicode/utf16"
)

// cfbStream is one stream at the root of a generated compound file.
type cfbStream struct {
	name string
	data []byte
}

// Compound file constants ([MS-CFB] 2.1, 2.2).
const (
	cfbSectorSize = 512
	cfbMiniCutoff = 4096
	cfbEndOfChain = 0xFFFFFFFE
	cfbFATSector  = 0xFFFFFFFD
	cfbFree       = 0xFFFFFFFF
	cfbNoStream   = 0xFFFFFFFF
	cfbEntrySize  = 128
)

// compoundFile writes an OLE2 compound file (version 3, 512-byte sectors)
// holding streams at its root, for tests of what the gateway says about
// encrypted packages excelize cannot decrypt, rights-managed packages and
// legacy workbooks. Each stream is padded to the mini stream cutoff, so
// every one lives in regular sectors and no mini stream is needed.
func compoundFile(streams ...cfbStream) []byte {
	var data bytes.Buffer
	var fat []uint32
	starts := make([]uint32, len(streams))
	for i, s := range streams {
		padded := append(append([]byte{}, s.data...), make([]byte, max(0, cfbMiniCutoff-len(s.data)))...)
		padded = append(padded, make([]byte, (cfbSectorSize-len(padded)%cfbSectorSize)%cfbSectorSize)...)
		starts[i] = uint32(len(fat))
		fat = appendChain(fat, len(padded)/cfbSectorSize)
		data.Write(padded)
	}
	entries := len(streams) + 1
	dirSectors := (entries*cfbEntrySize + cfbSectorSize - 1) / cfbSectorSize
	dirStart := uint32(len(fat))
	fat = appendChain(fat, dirSectors)
	data.Write(directory(streams, starts, dirSectors))
	fatSectors := 1
	for (len(fat)+fatSectors)*4 > fatSectors*cfbSectorSize {
		fatSectors++
	}
	fatStart := uint32(len(fat))
	for range fatSectors {
		fat = append(fat, cfbFATSector)
	}
	table := make([]byte, fatSectors*cfbSectorSize)
	for i := range table {
		table[i] = 0xFF
	}
	for i, v := range fat {
		binary.LittleEndian.PutUint32(table[i*4:], v)
	}
	data.Write(table)
	return append(cfbHeader(dirStart, fatStart, fatSectors), data.Bytes()...)
}

// appendChain adds a chain of n sectors that follow one another.
func appendChain(fat []uint32, n int) []uint32 {
	first := uint32(len(fat))
	for i := range n {
		next := first + uint32(i) + 1
		if i == n-1 {
			next = cfbEndOfChain
		}
		fat = append(fat, next)
	}
	return fat
}

func cfbHeader(dirStart, fatStart uint32, fatSectors int) []byte {
	h := make([]byte, cfbSectorSize)
	copy(h, oleMagic)
	le := binary.LittleEndian
	le.PutUint16(h[24:], 0x003E)
	le.PutUint16(h[26:], 3)
	le.PutUint16(h[28:], 0xFFFE)
	le.PutUint16(h[30:], 9)
	le.PutUint16(h[32:], 6)
	le.PutUint32(h[44:], uint32(fatSectors))
	le.PutUint32(h[48:], dirStart)
	le.PutUint32(h[56:], cfbMiniCutoff)
	le.PutUint32(h[60:], cfbEndOfChain)
	le.PutUint32(h[68:], cfbEndOfChain)
	for i := range 109 {
		v := uint32(cfbFree)
		if i < fatSectors {
			v = fatStart + uint32(i)
		}
		le.PutUint32(h[76+i*4:], v)
	}
	return h
}

// directory writes the root entry, whose child is the first stream, and
// the streams, each the right sibling of the one before.
func directory(streams []cfbStream, starts []uint32, sectors int) []byte {
	dir := make([]byte, sectors*cfbSectorSize)
	for i := range sectors * cfbSectorSize / cfbEntrySize {
		e := dir[i*cfbEntrySize:]
		binary.LittleEndian.PutUint32(e[68:], cfbNoStream)
		binary.LittleEndian.PutUint32(e[72:], cfbNoStream)
		binary.LittleEndian.PutUint32(e[76:], cfbNoStream)
	}
	dirEntry(dir[0:], "Root Entry", 5, cfbEndOfChain, 0)
	if len(streams) > 0 {
		binary.LittleEndian.PutUint32(dir[76:], 1)
	}
	for i, s := range streams {
		e := dir[(i+1)*cfbEntrySize:]
		dirEntry(e, s.name, 2, starts[i], uint64(max(len(s.data), cfbMiniCutoff)))
		if i+1 < len(streams) {
			binary.LittleEndian.PutUint32(e[72:], uint32(i+2))
		}
	}
	return dir
}

func dirEntry(e []byte, name string, kind byte, start uint32, size uint64) {
	units := utf16.Encode([]rune(name))
	for i, u := range units {
		binary.LittleEndian.PutUint16(e[i*2:], u)
	}
	binary.LittleEndian.PutUint16(e[64:], uint16((len(units)+1)*2))
	e[66], e[67] = kind, 1
	binary.LittleEndian.PutUint32(e[116:], start)
	binary.LittleEndian.PutUint64(e[120:], size)
}

// agileEncryptionInfo is an agile EncryptionInfo stream (version 4.4)
// whose XML describes keyData and one key encryptor.
func agileEncryptionInfo(keyData, keyEncryptorURI string, spinCount int) []byte {
	xml := `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` +
		`<encryption xmlns="http://schemas.microsoft.com/office/2006/encryption" ` +
		`xmlns:p="http://schemas.microsoft.com/office/2006/keyEncryptor/password">` +
		`<keyData saltSize="16" ` + keyData + ` saltValue="AAAAAAAAAAAAAAAAAAAAAA=="/>` +
		`<keyEncryptors><keyEncryptor uri="` + keyEncryptorURI + `"><p:encryptedKey spinCount="` +
		strconv.Itoa(spinCount) + `" saltSize="16" blockSize="16" keyBits="256" hashSize="64" cipherAlgorithm="AES" ` +
		`cipherChaining="ChainingModeCBC" hashAlgorithm="SHA512" saltValue="AAAAAAAAAAAAAAAAAAAAAA==" ` +
		`encryptedVerifierHashInput="" encryptedVerifierHashValue="" encryptedKeyValue=""/></keyEncryptor></keyEncryptors></encryption>`
	return append([]byte{4, 0, 4, 0, 0x40, 0, 0, 0}, xml...)
}
