// SPDX-License-Identifier: Apache-2.0

package telemetry

import (
	"context"
	"log/slog"
	"regexp"
	"sort"
	"strings"
	"sync"
)

// redacted replaces every secret the log scrubber finds.
const redacted = "[REDACTED]"

// keyShaped matches what looks like a Dagu API key, a bearer credential or
// a JSON Web Token in free text (an upstream error body, a transport
// message), whether or not it is one of the gateway's own secrets.
var keyShaped = regexp.MustCompile(`dagu_[A-Za-z0-9_-]{8,}|eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*|(?i)(bearer\s+)[A-Za-z0-9._~+/=-]{8,}`)

// scrubber removes secrets from log text: the configured Dagu key and
// inbound tokens (looked up once per line, so a rotated key file is
// covered) and anything shaped like a Dagu key or a JWT. With a version
// function the secrets are matched by one strings.Replacer built once per
// version, so a line costs the same whatever the number of tokens.
type scrubber struct {
	secrets func() []string
	version func() uint64

	mu       sync.Mutex
	built    bool
	seen     uint64
	replacer *strings.Replacer
}

// scrub returns s without secrets.
func (sc *scrubber) scrub(s string) string {
	return sc.lineScrub(nil)(s)
}

// lineScrub returns the scrub of one log line: the secrets are looked up
// (and the token file looked at) once, here, not once per string of the
// line. extra, when not nil, replaces the secrets of the line's request
// first.
func (sc *scrubber) lineScrub(extra *strings.Replacer) func(string) string {
	configured := sc.current()
	return func(s string) string {
		if extra != nil {
			s = extra.Replace(s)
		}
		if configured != nil {
			s = configured.Replace(s)
		}
		return scrubShaped(s)
	}
}

// scrubShaped replaces what looks like a key, a bearer credential or a JWT.
func scrubShaped(s string) string {
	return keyShaped.ReplaceAllStringFunc(s, func(m string) string {
		if strings.HasPrefix(strings.ToLower(m), "bearer") {
			return "Bearer " + redacted
		}
		return redacted
	})
}

// current is the replacer of the secrets now.
func (sc *scrubber) current() *strings.Replacer {
	if sc.secrets == nil {
		return nil
	}
	if sc.version == nil {
		return secretReplacer(sc.secrets())
	}
	v := sc.version()
	sc.mu.Lock()
	defer sc.mu.Unlock()
	if !sc.built || v != sc.seen {
		sc.replacer, sc.seen, sc.built = secretReplacer(sc.secrets()), v, true
	}
	return sc.replacer
}

// secretReplacer replaces each secret of 4 or more characters, the
// longest first where one starts another; nil when there is none.
func secretReplacer(secrets []string) *strings.Replacer {
	kept := make([]string, 0, len(secrets))
	for _, s := range secrets {
		if len(s) >= 4 {
			kept = append(kept, s)
		}
	}
	if len(kept) == 0 {
		return nil
	}
	sort.Slice(kept, func(i, j int) bool { return len(kept[i]) > len(kept[j]) })
	pairs := make([]string, 0, 2*len(kept))
	for _, s := range kept {
		pairs = append(pairs, s, redacted)
	}
	return strings.NewReplacer(pairs...)
}

// scrubAttr passes a's string value, error or Stringer through scrub,
// group members included, and bounds each to maxAttrBytes.
func scrubAttr(a slog.Attr, scrub func(string) string) slog.Attr {
	switch v := a.Value.Resolve(); v.Kind() {
	case slog.KindString:
		a.Value = slog.StringValue(boundText(scrub(v.String())))
	case slog.KindGroup:
		members := v.Group()
		out := make([]slog.Attr, len(members))
		for i, m := range members {
			out[i] = scrubAttr(m, scrub)
		}
		a.Value = slog.GroupValue(out...)
	case slog.KindAny:
		switch x := v.Any().(type) {
		case error:
			a.Value = slog.StringValue(boundText(scrub(x.Error())))
		case interface{ String() string }:
			a.Value = slog.StringValue(boundText(scrub(x.String())))
		default:
			a.Value = boundAny(x, scrub)
		}
	}
	return a
}

// scrubHandler is a slog.Handler that removes secrets from every string
// value, error and Stringer of a record, its message and group members
// included, before the next handler writes it: the configured secrets,
// those of the request the line is logged for (a passthrough caller's own
// Dagu key, found in the line's context), and key-shaped text. The
// secrets are looked up once per record (and once per WithAttrs).
type scrubHandler struct {
	next     slog.Handler
	secrets  *scrubber
	requests func(context.Context) []string // nil: no request secrets
}

// Enabled reports whether the next handler writes the level.
func (h scrubHandler) Enabled(ctx context.Context, l slog.Level) bool {
	return h.next.Enabled(ctx, l)
}

// Handle scrubs the record's message and attributes.
func (h scrubHandler) Handle(ctx context.Context, r slog.Record) error {
	var extra *strings.Replacer
	if h.requests != nil {
		extra = secretReplacer(h.requests(ctx))
	}
	scrub := h.secrets.lineScrub(extra)
	out := slog.NewRecord(r.Time, r.Level, boundText(scrub(r.Message)), r.PC)
	r.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(scrubAttr(a, scrub))
		return true
	})
	return h.next.Handle(ctx, out)
}

// WithAttrs scrubs attrs of the configured secrets and keeps the scrubber
// in front of the next handler.
func (h scrubHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	scrub := h.secrets.lineScrub(nil)
	out := make([]slog.Attr, len(attrs))
	for i, a := range attrs {
		out[i] = scrubAttr(a, scrub)
	}
	return scrubHandler{next: h.next.WithAttrs(out), secrets: h.secrets, requests: h.requests}
}

// WithGroup keeps the scrubber in front of the next handler.
func (h scrubHandler) WithGroup(name string) slog.Handler {
	return scrubHandler{next: h.next.WithGroup(name), secrets: h.secrets, requests: h.requests}
}
