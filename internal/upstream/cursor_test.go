// SPDX-License-Identifier: Apache-2.0

package upstream

import (
	"testing"
)

func TestRunCursorRoundTrip(t *testing.T) {
	t.Parallel()
	tests := []struct {
		cursor string
		from   int64
	}{
		{"eyJ2IjozfQ", 1764460800},
		{"a cursor with spaces, \"quotes\" and ü", 0},
		{"x", -1},
	}
	for _, tt := range tests {
		wrapped := wrapRunCursor(tt.cursor, tt.from)
		if !isWrappedRunCursor(wrapped) {
			t.Fatalf("%q lacks the prefix", wrapped)
		}
		got, err := unwrapRunCursor(wrapped)
		if err != nil || got.Cursor != tt.cursor || got.FromDate != tt.from {
			t.Errorf("round trip of %q/%d: %+v, %v", tt.cursor, tt.from, got, err)
		}
	}
}

func TestUnwrapRunCursorRejects(t *testing.T) {
	t.Parallel()
	tests := []string{
		"",
		"gw1.",
		"gw1.%%%",
		"gw1.e30",                                // {}
		"gw1.eyJjIjoiIiwiZiI6MX0",                // empty Dagu cursor
		"gw1.eyJjIjoieCIsImYiOjF9fQ",             // trailing }
		"gw1.eyJjIjoieCIsImYiOiIxIn0",            // f is a string
		"gw1.eyJjIjoieCIsImYiOjEsInoiOjJ9",       // unknown key
		"gw1.eyJjIjoieCIsImYiOjF9=",              // padding
		"gw2.eyJjIjoieCIsImYiOjF9",               // other version
		"gw1.eyJjIjoieCIsImYiOjF9IHsiYyI6InkifQ", // two objects
	}
	for _, c := range tests {
		if got, err := unwrapRunCursor(c); err == nil {
			t.Errorf("%q accepted as %+v", c, got)
		}
	}
}

// FuzzUnwrapRunCursor: the parser never panics, and whatever it accepts
// wraps back to a cursor that reads the same.
func FuzzUnwrapRunCursor(f *testing.F) {
	f.Add(wrapRunCursor("eyJ2IjozfQ", 1764460800))
	f.Add("gw1.")
	f.Add("gw1.e30")
	f.Add("gw1.eyJjIjoieCIsImYiOjF9fQ")
	f.Add("plain Dagu cursor")
	f.Fuzz(func(t *testing.T, cursor string) {
		w, err := unwrapRunCursor(cursor)
		if err != nil {
			return
		}
		if w.Cursor == "" {
			t.Fatalf("accepted an empty Dagu cursor from %q", cursor)
		}
		again, err := unwrapRunCursor(wrapRunCursor(w.Cursor, w.FromDate))
		if err != nil || again != w {
			t.Fatalf("%q: rewrapped as %+v, %v; want %+v", cursor, again, err, w)
		}
	})
}

// FuzzRunCursorRoundTrip: every non-empty Dagu cursor survives wrapping.
func FuzzRunCursorRoundTrip(f *testing.F) {
	f.Add("eyJ2IjozfQ", int64(1764460800))
	f.Add("\x00\xff", int64(-5))
	f.Fuzz(func(t *testing.T, cursor string, from int64) {
		if cursor == "" {
			return
		}
		got, err := unwrapRunCursor(wrapRunCursor(cursor, from))
		if err != nil {
			t.Fatalf("%q/%d: %v", cursor, from, err)
		}
		// JSON replaces invalid UTF-8; the cursors Dagu issues are base64url.
		if got.FromDate != from {
			t.Fatalf("fromDate %d, want %d", got.FromDate, from)
		}
	})
}

// TestEmulatedCursorIsBoundToItsScope: a cursor of a list the gateway pages
// itself reads back only for the same filters, with an offset inside the
// bound, and in exactly the form it was written.
func TestEmulatedCursorIsBoundToItsScope(t *testing.T) {
	t.Parallel()
	scope := "abc"
	good := encodeEmulatedCursor(emulatedCursor{Offset: 5, Scope: scope})
	if got, err := decodeEmulatedCursor(good, scope); err != nil || got.Offset != 5 {
		t.Fatalf("round trip: %+v, %v", got, err)
	}
	for _, c := range []string{
		"",
		"gw2.",
		"gw1.eyJvIjo1LCJzIjoiYWJjIn0",         // run cursor prefix
		"gw2.eyJvIjowLCJzIjoiYWJjIn0",         // offset 0
		"gw2.eyJvIjotMSwicyI6ImFiYyJ9",        // negative offset
		"gw2.eyJvIjo1LCJzIjoib3RoZXIifQ",      // other filters
		"gw2.eyJvIjo1LCJzIjoiYWJjIiwieCI6MX0", // unknown key
		"gw2.eyJvIjo1LCJzIjoiYWJjIn0ge30",     // two objects
		"gw2.eyJvIjo1LCJzIjoiYWJjIn0=",        // padding
		encodeEmulatedCursor(emulatedCursor{Offset: emulatedMaxItems + 1, Scope: scope}),
	} {
		if got, err := decodeEmulatedCursor(c, scope); err == nil {
			t.Errorf("%q accepted as %+v", c, got)
		}
	}
}

// FuzzDecodeEmulatedCursor: the parser never panics, and whatever it
// accepts is inside the bounds and encodes back to a cursor that reads the
// same.
func FuzzDecodeEmulatedCursor(f *testing.F) {
	f.Add(encodeEmulatedCursor(emulatedCursor{Offset: 5, Scope: "abc", From: 1764460800}))
	f.Add("gw2.")
	f.Add("gw2.e30")
	f.Add("gw2.eyJvIjo1LCJzIjoiYWJjIn0ge30")
	f.Fuzz(func(t *testing.T, cursor string) {
		c, err := decodeEmulatedCursor(cursor, "abc")
		if err != nil {
			return
		}
		if c.Offset <= 0 || c.Offset > emulatedMaxItems || c.Scope != "abc" {
			t.Fatalf("%q accepted out of bounds: %+v", cursor, c)
		}
		again, err := decodeEmulatedCursor(encodeEmulatedCursor(c), "abc")
		if err != nil || again != c {
			t.Fatalf("%q: re-encoded as %+v, %v; want %+v", cursor, again, err, c)
		}
	})
}
