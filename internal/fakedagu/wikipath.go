// SPDX-License-Identifier: Apache-2.0

package fakedagu

import (
	"errors"
	"regexp"
	"strings"
)

// Wiki page paths follow Dagu's page ID rules (mapping §1.3): segments of
// letters, digits, "_", ".", "-" and spaces that start with a letter, digit
// or "_", do not end with a space or dot and are not Windows device names;
// at most 256 characters in all.

const maxPagePathLen = 256

var (
	pageSegmentPattern   = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_. -]*$`)
	workspaceNamePattern = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)
	windowsDeviceNames   = map[string]bool{"CON": true, "PRN": true, "AUX": true, "NUL": true}
)

// validatePagePath checks a wiki page path (or prefix).
func validatePagePath(p string) error {
	if p == "" {
		return errors.New("page path is empty")
	}
	if len(p) > maxPagePathLen {
		return errors.New("page path is longer than 256 characters")
	}
	for _, seg := range strings.Split(p, "/") {
		if err := validatePageSegment(seg); err != nil {
			return err
		}
	}
	return nil
}

func validatePageSegment(seg string) error {
	switch {
	case !pageSegmentPattern.MatchString(seg):
		return errors.New("segment " + quoteSegment(seg) + " has characters that are not allowed")
	case strings.HasSuffix(seg, " ") || strings.HasSuffix(seg, "."):
		return errors.New("segment " + quoteSegment(seg) + " ends with a space or dot")
	case isWindowsDeviceName(seg):
		return errors.New("segment " + quoteSegment(seg) + " is a reserved name")
	}
	return nil
}

func isWindowsDeviceName(seg string) bool {
	base := strings.ToUpper(seg)
	if dot := strings.IndexByte(base, '.'); dot >= 0 {
		base = base[:dot]
	}
	if windowsDeviceNames[base] {
		return true
	}
	if len(base) == 4 && (strings.HasPrefix(base, "COM") || strings.HasPrefix(base, "LPT")) {
		return base[3] >= '1' && base[3] <= '9'
	}
	return false
}

func quoteSegment(seg string) string { return `"` + seg + `"` }
