// SPDX-License-Identifier: Apache-2.0

package telemetry

import (
	"bytes"
	"errors"
	"log/slog"
	"strings"
	"testing"
)

// TestLogLinesAreBounded: whatever a line is given (a huge message, string,
// error, group member or list), each of its values is cut to maxAttrBytes,
// and a secret that straddles the cut is still removed.
func TestLogLinesAreBounded(t *testing.T) {
	t.Parallel()
	const secret = "configured-secret-0123456789"
	huge := strings.Repeat("x", 1<<20)
	straddling := strings.Repeat("y", maxAttrBytes-10) + secret + huge
	many := make([]string, 90_000)
	for i := range many {
		many[i] = "unknown-field"
	}
	tests := []struct {
		name string
		log  func(*slog.Logger)
	}{
		{"message", func(l *slog.Logger) { l.Info(huge) }},
		{"string", func(l *slog.Logger) { l.Info("m", "value", huge) }},
		{"error", func(l *slog.Logger) { l.Info("m", "cause", errors.New(huge)) }},
		{"group", func(l *slog.Logger) { l.Info("m", slog.Group("g", "value", huge)) }},
		{"list", func(l *slog.Logger) { l.Info("m", "fields", many) }},
		{"with attrs", func(l *slog.Logger) { l.With("value", huge).Info("m") }},
		{"secret at the cut", func(l *slog.Logger) { l.Info("m", "value", straddling) }},
	}
	for _, format := range []string{"json", "text"} {
		for _, tt := range tests {
			t.Run(format+"/"+tt.name, func(t *testing.T) {
				t.Parallel()
				var out bytes.Buffer
				log := NewLogger(&out, LogOptions{Format: format, Secrets: func() []string { return []string{secret} }})
				tt.log(log)
				if out.Len() > 2*maxAttrBytes { // escaping may double what is kept
					t.Fatalf("line is %d bytes", out.Len())
				}
				if !strings.Contains(out.String(), "bytes cut]") {
					t.Fatalf("line does not say it was cut: %.300s", out.String())
				}
				if strings.Contains(out.String(), secret[:8]) {
					t.Fatalf("line carries part of the secret: %s", out.String())
				}
			})
		}
	}
}

// TestBoundTextKeepsShortTextAndRunes: text within the bound is unchanged;
// a cut never splits a character.
func TestBoundTextKeepsShortTextAndRunes(t *testing.T) {
	t.Parallel()
	if got := boundText("short"); got != "short" {
		t.Fatalf("boundText(short) = %q", got)
	}
	cut := boundText(strings.Repeat("é", maxAttrBytes))
	kept, _, _ := strings.Cut(cut, "…[")
	if !strings.HasPrefix(cut, "é") || len(kept) > maxAttrBytes || strings.ContainsRune(kept, '\uFFFD') || len(kept)%2 != 0 {
		t.Fatalf("cut text is %d bytes: %.40q", len(kept), kept)
	}
}
