// SPDX-License-Identifier: Apache-2.0

package telemetry

import (
	"context"
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
	// Secrets lists the secrets to remove from every line, looked up once
	// per line written so that a rotated key file is covered. Nil: only
	// key-shaped text is removed.
	Secrets func() []string
	// SecretsVersion, when set, changes whenever Secrets would return
	// something else: Secrets is then asked again, and its matcher built,
	// only when it changed, not for every line.
	SecretsVersion func() uint64
	// RequestSecrets lists the secrets of the request a line is logged
	// for, from the line's context (a passthrough caller's own Dagu key).
	RequestSecrets func(context.Context) []string
}

// NewLogger builds the process logger writing to w. Every string value,
// error and Stringer of a line, the message included, passes the scrubber,
// which removes the configured secrets and anything shaped like a Dagu key
// or a bearer credential; the secrets are looked up once per line.
func NewLogger(w io.Writer, o LogOptions) *slog.Logger {
	level, err := config.ParseLogLevel(o.Level)
	if err != nil {
		level = slog.LevelInfo
	}
	opts := &slog.HandlerOptions{Level: level}
	var h slog.Handler = slog.NewJSONHandler(w, opts)
	if strings.EqualFold(o.Format, "text") {
		h = slog.NewTextHandler(w, opts)
	}
	sc := &scrubber{secrets: o.Secrets, version: o.SecretsVersion}
	return slog.New(scrubHandler{next: h, secrets: sc, requests: o.RequestSecrets})
}
