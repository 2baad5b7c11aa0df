// SPDX-License-Identifier: Apache-2.0

package telemetry

import (
	"log/slog"
	"regexp"
	"strings"
)

// redacted replaces every secret the log scrubber finds.
const redacted = "[REDACTED]"

// keyShaped matches what looks like a Dagu API key or a bearer credential
// in free text (an upstream error body, a transport message), whether or
// not it is one of the gateway's own secrets.
var keyShaped = regexp.MustCompile(`dagu_[A-Za-z0-9_-]{8,}|(?i)(bearer\s+)[A-Za-z0-9._~+/=-]{8,}`)

// scrubber removes secrets from log text: the configured Dagu key and
// inbound tokens (looked up when a line is written, so a rotated key file
// is covered) and anything shaped like a Dagu key.
type scrubber struct {
	secrets func() []string
}

// scrub returns s without secrets.
func (sc scrubber) scrub(s string) string {
	if sc.secrets != nil {
		for _, secret := range sc.secrets() {
			if len(secret) >= 4 {
				s = strings.ReplaceAll(s, secret, redacted)
			}
		}
	}
	return keyShaped.ReplaceAllStringFunc(s, func(m string) string {
		if strings.HasPrefix(strings.ToLower(m), "bearer") {
			return "Bearer " + redacted
		}
		return redacted
	})
}

// replaceAttr is a slog ReplaceAttr hook: every string value, error and
// Stringer reaching a log line (messages included) passes the scrubber.
func (sc scrubber) replaceAttr(_ []string, a slog.Attr) slog.Attr {
	switch v := a.Value; v.Kind() {
	case slog.KindString:
		a.Value = slog.StringValue(sc.scrub(v.String()))
	case slog.KindAny:
		switch x := v.Any().(type) {
		case error:
			a.Value = slog.StringValue(sc.scrub(x.Error()))
		case interface{ String() string }:
			a.Value = slog.StringValue(sc.scrub(x.String()))
		}
	}
	return a
}
