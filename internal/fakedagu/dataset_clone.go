// SPDX-License-Identifier: Apache-2.0

package fakedagu

import (
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"strings"
)

// Runs listed in the all-time recording (031) without recorded details are
// derived from the newest recorded run of the same DAG: IDs, attempt IDs and
// sub-run IDs are replaced and every timestamp moves by the difference in
// start times; then the listed summary fields are laid over the copy.

// attemptDirPattern finds the attempt ID inside a step log path
// (".../run_20261130_093019Z_867a94/...").
var attemptDirPattern = regexp.MustCompile(`run_\d{8}_\d{6}Z_([0-9a-f]{6})`)

// runTemplate is a recorded run that others are derived from.
type runTemplate struct {
	details obj
	subs    map[string]obj // sub-run ID -> details
}

// clonedRun is a run derived from a template.
type clonedRun struct {
	details   obj
	subs      map[string]obj
	transform func(string) string // applies the same rewrite to log text
}

// cloneRun derives the run described by summary from a template.
func cloneRun(t runTemplate, summary obj) clonedRun {
	oldID := getStr(t.details, "dagRunId")
	newID := getStr(summary, "dagRunId")
	pairs := []string{oldID, newID}
	var prefixes []string
	prefixes = appendPrefixPair(prefixes, oldID, newID)
	for oldSub := range t.subs {
		newSub := derivedID("sub:"+newID+":"+oldSub, len(oldSub))
		pairs = append(pairs, oldSub, newSub)
		prefixes = appendPrefixPair(prefixes, oldSub, newSub)
	}
	for _, attempt := range attemptsIn(t) {
		pairs = append(pairs, "_"+attempt, "_"+derivedHex("attempt:"+newID+":"+attempt, len(attempt)))
		pairs = append(pairs, "attempt-id="+attempt, "attempt-id="+derivedHex("attempt:"+newID+":"+attempt, len(attempt)))
	}
	replacer := strings.NewReplacer(append(pairs, prefixes...)...)
	shift := timeShift(parseRecordedTime(getStr(summary, "startedAt")).Sub(parseRecordedTime(getStr(t.details, "startedAt"))))
	transform := func(s string) string { return shift.apply(replacer.Replace(s)) }

	out := clonedRun{transform: transform, subs: map[string]obj{}}
	out.details = mustObj(transformStrings(t.details, transform), "cloned run")
	for k, v := range summary {
		out.details[k] = deepCopy(v)
	}
	for oldSub, d := range t.subs {
		out.subs[transform(oldSub)] = mustObj(transformStrings(d, transform), "cloned sub-run")
	}
	return out
}

// appendPrefixPair adds the replacement of the 8-character ID prefix Dagu
// puts into log file names.
func appendPrefixPair(pairs []string, oldID, newID string) []string {
	if len(oldID) < 8 || len(newID) < 8 {
		return pairs
	}
	return append(pairs, "."+oldID[:8]+".", "."+newID[:8]+".")
}

// attemptsIn lists the attempt IDs that appear in a template's log paths.
func attemptsIn(t runTemplate) []string {
	seen := map[string]bool{}
	var out []string
	collect := func(s string) {
		for _, m := range attemptDirPattern.FindAllStringSubmatch(s, -1) {
			if !seen[m[1]] {
				seen[m[1]] = true
				out = append(out, m[1])
			}
		}
	}
	walkStrings(t.details, collect)
	for _, d := range t.subs {
		walkStrings(d, collect)
	}
	return out
}

// attemptOf returns a run's attempt ID: the one in its step log paths, or a
// stable value derived from the run ID when no step has a log path.
func attemptOf(details obj) string {
	attempt := ""
	walkStrings(getArr(details, "nodes"), func(s string) {
		if m := attemptDirPattern.FindStringSubmatch(s); m != nil && attempt == "" {
			attempt = m[1]
		}
	})
	if attempt == "" {
		attempt = derivedHex("attempt:"+getStr(details, "dagRunId"), 6)
	}
	return attempt
}

const base62Alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// derivedID returns a stable base62 identifier of length n for a seed.
func derivedID(seed string, n int) string {
	var b strings.Builder
	digest := sha256.Sum256([]byte(seed))
	for b.Len() < n {
		for _, c := range digest {
			if b.Len() == n {
				break
			}
			b.WriteByte(base62Alphabet[int(c)%len(base62Alphabet)])
		}
		digest = sha256.Sum256(digest[:])
	}
	return b.String()
}

// derivedHex returns a stable lower-case hex string of length n for a seed.
func derivedHex(seed string, n int) string {
	digest := sha256.Sum256([]byte(seed))
	return hex.EncodeToString(digest[:])[:n]
}
