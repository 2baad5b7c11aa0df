// SPDX-License-Identifier: Apache-2.0

package restclient

import (
	"bytes"
	"errors"
	"io"
	"testing"
)

// sizeRecorder serves data and notes the size of every read asked of it.
type sizeRecorder struct {
	r     io.Reader
	sizes []int
}

func (s *sizeRecorder) Read(p []byte) (int, error) {
	s.sizes = append(s.sizes, len(p))
	return s.r.Read(p)
}

func TestReadBodyReadsWholeBodies(t *testing.T) {
	t.Parallel()
	for _, n := range []int{0, 1, firstReadBytes - 1, firstReadBytes, firstReadBytes + 1, pooledBodyBytes - 1,
		pooledBodyBytes, pooledBodyBytes + 1, 3*pooledBodyBytes + 7} {
		data := make([]byte, n)
		for i := range data {
			data[i] = byte('a' + i%26)
		}
		src := &sizeRecorder{r: bytes.NewReader(data)}
		got, recycle, err := readBody(src)
		if err != nil || !bytes.Equal(got, data) {
			t.Errorf("%d bytes: read %d bytes, error %v", n, len(got), err)
		}
		recycle()
		// Reads start small and double as they fill, so a body without a
		// declared length reserves the budget in steps that follow its size.
		want := []int{firstReadBytes, 2 * firstReadBytes, 4 * firstReadBytes}
		if n < 7*firstReadBytes {
			want = want[:1]
		}
		for i, w := range want {
			if src.sizes[i] != w {
				t.Errorf("%d bytes: read %d asked for %d bytes, want %d", n, i, src.sizes[i], w)
			}
		}
	}
}

func TestReadBodyReturnsTheReadError(t *testing.T) {
	t.Parallel()
	boom := errors.New("boom")
	for _, n := range []int{10, pooledBodyBytes + 10} {
		r := io.MultiReader(bytes.NewReader(make([]byte, n)), errReader{boom})
		got, recycle, err := readBody(r)
		recycle()
		if !errors.Is(err, boom) || got != nil {
			t.Errorf("%d bytes then an error: got %d bytes, error %v", n, len(got), err)
		}
	}
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }
