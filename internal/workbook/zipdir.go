// SPDX-License-Identifier: Apache-2.0

package workbook

import (
	"encoding/binary"
	"io"
)

// Reading a zip's central directory costs memory per entry (archive/zip
// keeps a File for each, and the container indexes them by name), so the
// directory is reserved against the read's budget before archive/zip
// reads it. Where it starts comes from the end-of-directory record, found
// the way archive/zip finds it.
const (
	zipEndLen         = 22       // end-of-central-directory record without its comment
	zipEndSearchLen   = 65 << 10 // how far from the end archive/zip looks for it
	zip64LocatorLen   = 20       // zip64 end-of-central-directory locator
	zip64EndLen       = 56       // zip64 end-of-central-directory record
	zipDirEntryMinLen = 46       // smallest central directory entry
	costZipEntry      = 384      // a zip.File, its slot and its index entry
)

const (
	zipEndSig       = 0x06054b50
	zip64LocatorSig = 0x07064b50
	zip64EndSig     = 0x06064b50
)

// zipDirectoryCost returns an upper bound of the memory archive/zip and
// the container's index take for the package in r: archive/zip reads
// entries from the directory's start to the end of the file, and every
// zipDirEntryMinLen bytes of that can be an entry. A package whose
// directory cannot be located costs nothing here: archive/zip refuses it.
func zipDirectoryCost(r io.ReaderAt, size int64) int64 {
	offset, ok := zipDirectoryOffset(r, size)
	if !ok {
		return 0
	}
	dirBytes := size - offset
	return (dirBytes/zipDirEntryMinLen+1)*costZipEntry + 2*dirBytes
}

// zipDirectoryOffset returns where the central directory starts at the
// earliest: archive/zip may start later when data precedes the package.
func zipDirectoryOffset(r io.ReaderAt, size int64) (int64, bool) {
	tailLen := min(size, zipEndSearchLen)
	tail := make([]byte, tailLen)
	if _, err := r.ReadAt(tail, size-tailLen); err != nil && err != io.EOF {
		return 0, false
	}
	at := findZipEnd(tail)
	if at < 0 {
		return 0, false
	}
	end := tail[at:]
	records := binary.LittleEndian.Uint16(end[10:])
	dirSize := binary.LittleEndian.Uint32(end[12:])
	offset := int64(binary.LittleEndian.Uint32(end[16:]))
	if records == 0xFFFF || dirSize == 0xFFFFFFFF || offset == 0xFFFFFFFF {
		if offset64, ok := zip64DirectoryOffset(r, size-tailLen+int64(at)); ok {
			offset = offset64
		}
	}
	return offset, offset >= 0 && offset < size
}

// findZipEnd returns the offset in b of the last end record whose comment
// fits in b, or -1.
func findZipEnd(b []byte) int {
	for i := len(b) - zipEndLen; i >= 0; i-- {
		if binary.LittleEndian.Uint32(b[i:]) != zipEndSig {
			continue
		}
		comment := int(binary.LittleEndian.Uint16(b[i+zipEndLen-2:]))
		if i+zipEndLen+comment <= len(b) {
			return i
		}
	}
	return -1
}

// zip64DirectoryOffset reads the zip64 locator just before the end record
// at endAt, then the zip64 record it points to.
func zip64DirectoryOffset(r io.ReaderAt, endAt int64) (int64, bool) {
	if endAt < zip64LocatorLen {
		return 0, false
	}
	locator := make([]byte, zip64LocatorLen)
	if _, err := r.ReadAt(locator, endAt-zip64LocatorLen); err != nil ||
		binary.LittleEndian.Uint32(locator) != zip64LocatorSig {
		return 0, false
	}
	recordAt := binary.LittleEndian.Uint64(locator[8:])
	if recordAt > uint64(endAt) {
		return 0, false
	}
	record := make([]byte, zip64EndLen)
	if _, err := r.ReadAt(record, int64(recordAt)); err != nil ||
		binary.LittleEndian.Uint32(record) != zip64EndSig {
		return 0, false
	}
	offset := binary.LittleEndian.Uint64(record[48:])
	return int64(offset), offset <= uint64(endAt)
}
