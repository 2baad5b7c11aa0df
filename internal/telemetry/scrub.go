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
// inbound tokens (looked up when a line is written, so a rotated key file
// is covered) and anything shaped like a Dagu key or a JWT. With a version
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
	if r := sc.current(); r != nil {
		s = r.Replace(s)
	}
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

// replaceAttr is a slog ReplaceAttr hook: every string value, error and
// Stringer reaching a log line (messages included) passes the scrubber.
func (sc *scrubber) replaceAttr(_ []string, a slog.Attr) slog.Attr {
	return scrubAttr(a, sc.scrub)
}

// scrubAttr passes a's string value, error or Stringer through scrub,
// group members included.
func scrubAttr(a slog.Attr, scrub func(string) string) slog.Attr {
	switch v := a.Value.Resolve(); v.Kind() {
	case slog.KindString:
		a.Value = slog.StringValue(scrub(v.String()))
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
			a.Value = slog.StringValue(scrub(x.Error()))
		case interface{ String() string }:
			a.Value = slog.StringValue(scrub(x.String()))
		}
	}
	return a
}

// requestScrubber is a slog.Handler that removes the secrets of the
// request a line is logged for (a passthrough caller's own Dagu key, found
// in the line's context) before the next handler writes it.
type requestScrubber struct {
	next    slog.Handler
	secrets func(context.Context) []string
}

// Enabled reports whether the next handler writes the level.
func (h requestScrubber) Enabled(ctx context.Context, l slog.Level) bool {
	return h.next.Enabled(ctx, l)
}

// Handle scrubs the record's message and attributes of the context's
// secrets.
func (h requestScrubber) Handle(ctx context.Context, r slog.Record) error {
	rep := secretReplacer(h.secrets(ctx))
	if rep == nil {
		return h.next.Handle(ctx, r)
	}
	out := slog.NewRecord(r.Time, r.Level, rep.Replace(r.Message), r.PC)
	r.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(scrubAttr(a, rep.Replace))
		return true
	})
	return h.next.Handle(ctx, out)
}

// WithAttrs keeps the scrubber in front of the next handler.
func (h requestScrubber) WithAttrs(attrs []slog.Attr) slog.Handler {
	return requestScrubber{next: h.next.WithAttrs(attrs), secrets: h.secrets}
}

// WithGroup keeps the scrubber in front of the next handler.
func (h requestScrubber) WithGroup(name string) slog.Handler {
	return requestScrubber{next: h.next.WithGroup(name), secrets: h.secrets}
}
