// SPDX-License-Identifier: Apache-2.0

package sharedstate

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
)

// A stored value is framed as:
//
//	"dg" | version (1) | flags | CRC-32C of the value | value length | payload
//
// where the payload is the value, deflated when flagDeflate is set. The
// frame lets a reader tell our values from anything else under the key and
// bounds what decoding may allocate.
const (
	envelopeVersion    = 1
	flagDeflate        = 1
	headerLen          = 12
	maxEnvelopePayload = 64 << 20
	// compressFrom is the smallest value worth compressing.
	compressFrom = 512
)

var (
	envelopeMagic = [2]byte{'d', 'g'}
	crcTable      = crc32.MakeTable(crc32.Castagnoli)
	errEnvelope   = errors.New("not a shared-state value")
)

// encodeValue frames v, deflating it when that saves at least an eighth.
func encodeValue(v []byte) []byte {
	payload, flags := v, byte(0)
	if len(v) >= compressFrom {
		if z := deflate(v); len(z) <= len(v)-len(v)/8 {
			payload, flags = z, flagDeflate
		}
	}
	out := make([]byte, headerLen, headerLen+len(payload))
	copy(out, envelopeMagic[:])
	out[2], out[3] = envelopeVersion, flags
	binary.BigEndian.PutUint32(out[4:], crc32.Checksum(v, crcTable))
	binary.BigEndian.PutUint32(out[8:], uint32(len(v)))
	return append(out, payload...)
}

func deflate(v []byte) []byte {
	var buf bytes.Buffer
	w, _ := flate.NewWriter(&buf, flate.BestSpeed) // the level is valid
	_, _ = w.Write(v)                              // a bytes.Buffer never fails
	_ = w.Close()
	return buf.Bytes()
}

// decodeValue returns the value framed in b, or errEnvelope when b is not
// a frame of ours, claims more than maxLen bytes, or fails its checksum.
func decodeValue(b []byte, maxLen int) ([]byte, error) {
	if len(b) < headerLen || b[0] != envelopeMagic[0] || b[1] != envelopeMagic[1] || b[2] != envelopeVersion {
		return nil, errEnvelope
	}
	flags, sum, n := b[3], binary.BigEndian.Uint32(b[4:]), binary.BigEndian.Uint32(b[8:])
	if n > uint32(maxLen) {
		return nil, errEnvelope
	}
	payload := b[headerLen:]
	var v []byte
	switch flags {
	case 0:
		v = payload
	case flagDeflate:
		var err error
		if v, err = inflate(payload, int(n)); err != nil {
			return nil, errEnvelope
		}
	default:
		return nil, errEnvelope
	}
	if len(v) != int(n) || crc32.Checksum(v, crcTable) != sum {
		return nil, errEnvelope
	}
	return v, nil
}

// inflate decompresses at most n+1 bytes, so a frame that lies about its
// length cannot make the reader allocate more than it claimed.
func inflate(z []byte, n int) ([]byte, error) {
	r := flate.NewReader(bytes.NewReader(z))
	defer r.Close()
	out := bytes.NewBuffer(make([]byte, 0, n))
	if _, err := io.Copy(out, io.LimitReader(r, int64(n)+1)); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}
