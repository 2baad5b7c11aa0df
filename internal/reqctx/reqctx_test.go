// SPDX-License-Identifier: Apache-2.0

package reqctx

import (
	"context"
	"strings"
	"testing"
)

func TestSanitizeRequestID(t *testing.T) {
	t.Parallel()
	tests := map[string]string{
		"abc-123":                  "abc-123",
		"  trace:42.a_b  ":         "trace:42.a_b",
		"":                         "",
		"has space":                "",
		"new\nline":                "",
		"<script>":                 "",
		strings.Repeat("a", 128):   strings.Repeat("a", 128),
		strings.Repeat("a", 129):   "",
		"ünïcode":                  "",
		"id\x00with-nul":           "",
		"dagu_key_like_but_fine12": "dagu_key_like_but_fine12",
	}
	for in, want := range tests {
		if got := SanitizeRequestID(in); got != want {
			t.Errorf("SanitizeRequestID(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCounterAndInfo(t *testing.T) {
	t.Parallel()
	CountUpstream(context.Background()) // no request: nothing to count, no panic
	ctx := With(context.Background(), Info{RequestID: "r1", Caller: "ops"})
	for range 3 {
		CountUpstream(ctx)
	}
	info, ok := From(ctx)
	if !ok || info.RequestID != "r1" || info.Caller != "ops" || info.UpstreamCalls() != 3 {
		t.Fatalf("info = %+v (%d calls)", info, info.UpstreamCalls())
	}
	if a, b := NewRequestID(), NewRequestID(); a == b || SanitizeRequestID(a) != a {
		t.Fatalf("request IDs %q %q", a, b)
	}
}
