// SPDX-License-Identifier: Apache-2.0

package telemetry

import (
	"bytes"
	"strings"
	"testing"
)

func TestNewLogger(t *testing.T) {
	t.Parallel()
	tests := []struct {
		level, format string
		want, notWant []string
	}{
		{"debug", "json", []string{`"msg":"debug line"`, `"msg":"info line"`}, nil},
		{"info", "text", []string{`msg="info line"`}, []string{"debug line"}},
		{"warn", "json", nil, []string{"debug line", "info line"}},
		{"bogus", "bogus", []string{`"msg":"info line"`}, []string{"debug line"}},
	}
	for _, tt := range tests {
		t.Run(tt.level+"/"+tt.format, func(t *testing.T) {
			t.Parallel()
			var out bytes.Buffer
			logger := NewLogger(&out, LogOptions{Level: tt.level, Format: tt.format})
			logger.Debug("debug line")
			logger.Info("info line")
			for _, w := range tt.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("output %q lacks %q", out.String(), w)
				}
			}
			for _, w := range tt.notWant {
				if strings.Contains(out.String(), w) {
					t.Errorf("output %q has %q", out.String(), w)
				}
			}
		})
	}
}
