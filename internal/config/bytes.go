// SPDX-License-Identifier: Apache-2.0

package config

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Binary size units accepted by ParseByteSize, largest first so that
// FormatByteSize picks the biggest unit that divides a size exactly.
var byteUnits = []struct {
	suffix string
	factor int64
}{
	{"GiB", 1 << 30},
	{"MiB", 1 << 20},
	{"KiB", 1 << 10},
	{"B", 1},
}

// ParseByteSize parses a positive byte count written either as a plain
// integer ("33554432") or as an integer with a binary unit ("32MiB",
// "512 KiB", "1gib"). Decimal units such as "MB" are refused rather than
// guessed, because operators mean different things by them.
func ParseByteSize(text string) (int64, error) {
	s := strings.TrimSpace(text)
	if s == "" {
		return 0, errors.New("empty size: write a byte count such as 33554432 or 32MiB")
	}
	number, factor, err := splitByteUnit(s)
	if err != nil {
		return 0, err
	}
	n, err := strconv.ParseInt(number, 10, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("invalid size %q: write a whole number of bytes, KiB, MiB or GiB, such as 32MiB", text)
	}
	if n > math.MaxInt64/factor {
		return 0, fmt.Errorf("size %q is too large", text)
	}
	return n * factor, nil
}

// splitByteUnit separates the numeric part of s from its unit suffix.
func splitByteUnit(s string) (number string, factor int64, err error) {
	end := len(s)
	for end > 0 && !isASCIIDigit(s[end-1]) {
		end--
	}
	number = strings.TrimSpace(s[:end])
	unit := strings.TrimSpace(s[end:])
	if unit == "" {
		return number, 1, nil
	}
	for _, u := range byteUnits {
		if strings.EqualFold(unit, u.suffix) {
			return number, u.factor, nil
		}
	}
	return "", 0, fmt.Errorf("unknown size unit %q in %q: use B, KiB, MiB or GiB (binary units), or a plain byte count", unit, s)
}

func isASCIIDigit(b byte) bool { return b >= '0' && b <= '9' }

// FormatByteSize writes n with the largest binary unit that divides it
// exactly, so that FormatByteSize(32<<20) is "32MiB".
func FormatByteSize(n int64) string {
	if n == 0 {
		return "0"
	}
	for _, u := range byteUnits {
		if u.factor > 1 && n%u.factor == 0 {
			return strconv.FormatInt(n/u.factor, 10) + u.suffix
		}
	}
	return strconv.FormatInt(n, 10)
}

// byteSizeValue is a pflag.Value holding a byte count parsed by
// ParseByteSize.
type byteSizeValue int64

// String formats the size for help text and error messages.
func (v *byteSizeValue) String() string { return FormatByteSize(int64(*v)) }

// Set parses a size given on the command line.
func (v *byteSizeValue) Set(text string) error {
	n, err := ParseByteSize(text)
	if err != nil {
		return err
	}
	*v = byteSizeValue(n)
	return nil
}

// Type names the value kind in help output.
func (v *byteSizeValue) Type() string { return "size" }
