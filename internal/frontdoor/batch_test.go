// SPDX-License-Identifier: Apache-2.0

package frontdoor

import (
	"bufio"
	"bytes"
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestBatchesAreRefused: one HTTP request is at most one call, whatever
// protocol revision the client claims (the SDK alone accepts batches from
// clients of revisions before 2025-06-18).
func TestBatchesAreRefused(t *testing.T) {
	t.Parallel()
	ts := sdkFrontDoor(t, Options{})
	list := `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`
	tests := []struct {
		name, body, version string
		want                int
		wantBody            string
	}{
		{"batch, older revision", "[" + list + "," + list + "]", "2025-03-26", 400, "batches are not supported"},
		{"batch after whitespace", " \n\t[" + list + "]", "2025-03-26", 400, "batches are not supported"},
		{"batch, current revision", "[" + list + "]", "2025-06-18", 400, "batches are not supported"},
		{"single request", list, "2025-06-18", 200, `"tools"`},
		{"single request after whitespace", "\n  " + list, "2025-06-18", 200, `"tools"`},
		// Issue 20: 4,100 spaces took a 7,500-call batch past the check.
		{"batch after 4,100 spaces", strings.Repeat(" ", 4100) + "[" + list + "," + list + "]", "2025-03-26", 400, "batches are not supported"},
		{"batch after 900 KiB of whitespace", strings.Repeat(" \r\n\t", 900<<8) + "[" + list + "]", "2025-03-26", 400, "batches are not supported"},
		{"batch after a byte order mark", "\xEF\xBB\xBF[" + list + "]", "2025-03-26", 400, "batches are not supported"},
		{"batch after marks and whitespace", " \xEF\xBB\xBF\n\xEF\xBB\xBF  [" + list + "]", "2025-03-26", 400, "batches are not supported"},
		{"UTF-16 batch", "\xFF\xFE[\x00", "2025-03-26", 400, "must be UTF-8"},
		{"single request after 10,000 spaces", strings.Repeat(" ", 10_000) + list, "2025-06-18", 200, `"tools"`},
		{"single request after a byte order mark", "\xEF\xBB\xBF" + list, "2025-06-18", 200, `"tools"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			req, _ := http.NewRequest(http.MethodPost, ts.URL+"/mcp", strings.NewReader(tt.body))
			req.Header.Set("Mcp-Protocol-Version", tt.version)
			expectMCPAnswer(t, ts, req, tt.want, tt.wantBody)
		})
	}
}

// FuzzSkipToJSON: the first byte skipToJSON reports, and what it leaves
// to read, are those of the input with its leading whitespace and UTF-8
// byte order marks removed.
func FuzzSkipToJSON(f *testing.F) {
	for _, seed := range []string{"", " [", "\xEF\xBB\xBF {", "\xEF\xBB", "\xEF\xBB\xBF\xEF\xBB\xBF\n[1]", "\t\r\n\xFF\xFE["} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		want := in
		for {
			trimmed := bytes.TrimLeft(want, " \t\r\n")
			trimmed = bytes.TrimPrefix(trimmed, utf8BOM)
			if len(trimmed) == len(want) {
				break
			}
			want = trimmed
		}
		br := bufio.NewReaderSize(bytes.NewReader(in), 16)
		got := skipToJSON(br)
		rest, _ := io.ReadAll(br)
		if !bytes.Equal(rest, want) || (len(want) > 0 && got != want[0]) || (len(want) == 0 && got != 0) {
			t.Fatalf("skipToJSON(%q) = %q leaving %q, want leaving %q", in, got, rest, want)
		}
	})
}
