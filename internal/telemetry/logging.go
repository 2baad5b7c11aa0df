// SPDX-License-Identifier: Apache-2.0

package telemetry

import (
	"io"
	"log/slog"
	"strings"

	"github.com/dagu-mcp-gateway/gateway/internal/config"
)

// LogOptions configures NewLogger.
type LogOptions struct {
	// Level is debug, info, warn or error; anything else logs at info
	// (config.Validate reports it).
	Level string
	// Format is json or text; anything else writes JSON.
	Format string
	// Secrets lists the secrets to remove from every line, looked up when
	// a line is written so that a rotated key file is covered. Nil: only
	// key-shaped text is removed.
	Secrets func() []string
}

// NewLogger builds the process logger writing to w. Every string value,
// error and Stringer of a line, the message included, passes the scrubber,
// which removes the configured secrets and anything shaped like a Dagu key
// or a bearer credential.
func NewLogger(w io.Writer, o LogOptions) *slog.Logger {
	level, err := config.ParseLogLevel(o.Level)
	if err != nil {
		level = slog.LevelInfo
	}
	opts := &slog.HandlerOptions{Level: level, ReplaceAttr: scrubber{secrets: o.Secrets}.replaceAttr}
	if strings.EqualFold(o.Format, "text") {
		return slog.New(slog.NewTextHandler(w, opts))
	}
	return slog.New(slog.NewJSONHandler(w, opts))
}
