// SPDX-License-Identifier: Apache-2.0

package mapping

import (
	"testing"
	"time"
)

func TestTime(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in, want string
	}{
		{"", ""},
		{"-", ""},
		{"not a time", ""},
		{"2026-11-30", ""},
		{"2026-11-30 09:30:19Z", ""},
		{"2026-11-30T09:30:19", ""},
		{"2026-11-30T09:30:19Z", "2026-11-30T09:30:19Z"},
		{"2026-11-30T18:30:19+09:00", "2026-11-30T09:30:19Z"},
		{"2026-11-30T00:30:19-02:00", "2026-11-30T02:30:19Z"},
		{"2026-01-01T00:30:00+01:00", "2025-12-31T23:30:00Z"},
		{"2026-10-27T08:02:02.158Z", "2026-10-27T08:02:02.158Z"},
		{"2026-10-27T10:02:02.158+02:00", "2026-10-27T08:02:02.158Z"},
		{"2026-11-30T09:30:24.472222823Z", "2026-11-30T09:30:24.472222823Z"},
		{"2026-10-27T08:02:02.150Z", "2026-10-27T08:02:02.15Z"},
		{"2026-10-27T08:02:02.000Z", "2026-10-27T08:02:02Z"},
		{"0000-01-01T00:30:00+01:00", ""},
		{"9999-12-31T23:30:00-01:00", ""},
	}
	for _, tc := range tests {
		if got := Time(tc.in); got != tc.want {
			t.Errorf("Time(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestTimeKeepsCanonicalInputWithoutAllocating(t *testing.T) {
	for _, in := range []string{"2026-11-30T09:30:19Z", "2026-10-27T08:02:02.158Z"} {
		allocs := testing.AllocsPerRun(100, func() { _ = Time(in) })
		if allocs != 0 {
			t.Errorf("Time(%q) allocated %v times, want 0", in, allocs)
		}
	}
}

func FuzzTime(f *testing.F) {
	for _, seed := range []string{
		"", "-", "2026-11-30T09:30:19Z", "2026-11-30T18:30:19+09:00",
		"2026-10-27T08:02:02.150Z", "2026-11-30T09:30:24.472222823Z",
		"0000-01-01T00:30:00+01:00", "2026-11-30T09:30:19.1234567891Z", "garbage",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out := Time(in)
		if out == "" {
			return
		}
		parsedOut, err := time.Parse(time.RFC3339Nano, out)
		if err != nil {
			t.Fatalf("Time(%q) = %q, which does not parse: %v", in, out, err)
		}
		if out[len(out)-1] != 'Z' {
			t.Fatalf("Time(%q) = %q, not in UTC", in, out)
		}
		parsedIn, _ := time.Parse(time.RFC3339Nano, in)
		if !parsedIn.Equal(parsedOut) {
			t.Fatalf("Time(%q) = %q, a different instant", in, out)
		}
		if again := Time(out); again != out {
			t.Fatalf("Time is not idempotent: %q -> %q -> %q", in, out, again)
		}
	})
}
