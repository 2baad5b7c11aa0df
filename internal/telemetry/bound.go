// SPDX-License-Identifier: Apache-2.0

package telemetry

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"unicode/utf8"
)

// maxAttrBytes bounds every string a log line carries (the message and
// each attribute, after scrubbing): a caller's input echoed into a line
// never makes it large. 8 KiB keeps a typical panic's stack whole.
const maxAttrBytes = 8 << 10

// boundText cuts s to maxAttrBytes on a rune boundary and says how much
// was left out. It runs after scrubbing, so no secret is cut in half and
// left partly unscrubbed.
func boundText(s string) string {
	if len(s) <= maxAttrBytes {
		return s
	}
	cut := maxAttrBytes
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + fmt.Sprintf("…[%d bytes cut]", len(s)-cut)
}

// boundAny keeps a structured value (a list, a map) as itself when its
// JSON fits in maxAttrBytes, and otherwise writes its cut JSON text.
func boundAny(v any, scrub func(string) string) slog.Value {
	raw, err := json.Marshal(v)
	if err != nil || len(raw) <= maxAttrBytes {
		return slog.AnyValue(v)
	}
	return slog.StringValue(boundText(scrub(string(raw))))
}
