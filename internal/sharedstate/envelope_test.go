// SPDX-License-Identifier: Apache-2.0

package sharedstate

import (
	"bytes"
	"crypto/rand"
	"encoding/binary"
	"testing"
)

func TestEnvelopeRoundTrip(t *testing.T) {
	t.Parallel()
	random := make([]byte, 4096)
	_, _ = rand.Read(random)
	repetitive := bytes.Repeat([]byte(`{"name":"step","status":"succeeded"},`), 200)
	cases := []struct {
		name       string
		value      []byte
		compressed bool
	}{
		{"empty", []byte{}, false},
		{"small", []byte(`{"a":1}`), false},
		{"repetitive JSON is deflated", repetitive, true},
		{"random bytes stay as they are", random, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			frame := encodeValue(c.value)
			if got := frame[3]&flagDeflate != 0; got != c.compressed {
				t.Fatalf("deflated = %v, want %v", got, c.compressed)
			}
			if c.compressed && len(frame) >= len(c.value) {
				t.Fatalf("a deflated frame of %d bytes for %d bytes of value", len(frame), len(c.value))
			}
			got, err := decodeValue(frame, len(c.value))
			if err != nil {
				t.Fatalf("decode: %v", err)
			}
			if !bytes.Equal(got, c.value) {
				t.Fatalf("decoded %d bytes, want the %d stored", len(got), len(c.value))
			}
		})
	}
}

func TestEnvelopeRefusesWhatIsNotOurs(t *testing.T) {
	t.Parallel()
	good := encodeValue(bytes.Repeat([]byte("abcdefgh"), 200))
	mutate := func(f func(b []byte) []byte) []byte { return f(bytes.Clone(good)) }
	cases := []struct {
		name   string
		frame  []byte
		maxLen int
	}{
		{"nothing", nil, 1 << 20},
		{"a plain string", []byte("hello, this is not a frame at all"), 1 << 20},
		{"wrong magic", mutate(func(b []byte) []byte { b[0] = 'x'; return b }), 1 << 20},
		{"future version", mutate(func(b []byte) []byte { b[2] = 9; return b }), 1 << 20},
		{"unknown flag", mutate(func(b []byte) []byte { b[3] = 4; return b }), 1 << 20},
		{"bad checksum", mutate(func(b []byte) []byte { b[4] ^= 0xff; return b }), 1 << 20},
		{"claims more than allowed", good, 100},
		{"claims less than it holds", mutate(func(b []byte) []byte { binary.BigEndian.PutUint32(b[8:], 10); return b }), 1 << 20},
		{"truncated payload", good[:len(good)-5], 1 << 20},
		{"corrupt deflate stream", mutate(func(b []byte) []byte { b[headerLen] ^= 0xff; b[headerLen+1] ^= 0xff; return b }), 1 << 20},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			if v, err := decodeValue(c.frame, c.maxLen); err == nil {
				t.Fatalf("decoded %d bytes from a frame that is not ours", len(v))
			}
		})
	}
}

func FuzzDecodeValue(f *testing.F) {
	f.Add(encodeValue([]byte(`{"a":1}`)), 64)
	f.Add(encodeValue(bytes.Repeat([]byte("xyz"), 400)), 2000)
	f.Add([]byte("dg\x01\x01\x00\x00\x00\x00\xff\xff\xff\xff"), 1<<20)
	f.Fuzz(func(t *testing.T, frame []byte, maxLen int) {
		if maxLen < 0 || maxLen > 1<<20 {
			return
		}
		v, err := decodeValue(frame, maxLen)
		if err != nil {
			return
		}
		if len(v) > maxLen {
			t.Fatalf("decoded %d bytes past the bound %d", len(v), maxLen)
		}
		if again, err := decodeValue(encodeValue(v), maxLen); err != nil || !bytes.Equal(again, v) {
			t.Fatalf("a decoded value does not survive a round trip: %v", err)
		}
	})
}
