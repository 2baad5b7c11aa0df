// SPDX-License-Identifier: Apache-2.0

package readtool

import (
	"regexp"
	"strings"
)

// Wiki page paths and workspace names follow Dagu's own validation, so a
// value the gateway accepts is one Dagu accepts too.
var (
	pageSegment   = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_. -]*$`)
	workspaceName = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)
	deviceNames   = map[string]bool{
		"con": true, "prn": true, "aux": true, "nul": true,
		"com1": true, "com2": true, "com3": true, "com4": true, "com5": true,
		"com6": true, "com7": true, "com8": true, "com9": true,
		"lpt1": true, "lpt2": true, "lpt3": true, "lpt4": true, "lpt5": true,
		"lpt6": true, "lpt7": true, "lpt8": true, "lpt9": true,
	}
)

const maxPagePath = 256

// validWikiPagePath reports whether p is a page path Dagu accepts: slash
// separated segments of letters, digits, `_`, `.`, `-` and spaces, each
// starting with a letter, digit or `_`, not ending in a space or dot, and
// not a reserved device name.
func validWikiPagePath(p string) bool {
	if p == "" || len(p) > maxPagePath {
		return false
	}
	for _, seg := range strings.Split(p, "/") {
		if !pageSegment.MatchString(seg) || strings.HasSuffix(seg, " ") || strings.HasSuffix(seg, ".") {
			return false
		}
		stem, _, _ := strings.Cut(seg, ".")
		if deviceNames[strings.ToLower(stem)] {
			return false
		}
	}
	return true
}

// validWikiPrefix reports whether p is a usable page path prefix.
func validWikiPrefix(p string) bool { return validWikiPagePath(p) }

// validWorkspace reports whether w names a workspace selector.
func validWorkspace(w string) bool { return workspaceName.MatchString(w) }
