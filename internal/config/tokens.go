// SPDX-License-Identifier: Apache-2.0

package config

import (
	"errors"
	"fmt"
	"os"
	"regexp"
	"strings"
	"unicode"
)

// minTokenLength is the shortest inbound token accepted. Short tokens can be
// guessed; the placeholder REPLACE_ME in the example secret is refused too.
const minTokenLength = 16

// InboundTokens returns every inbound bearer token: those given with
// --auth-token or GATEWAY_AUTH_TOKENS, then those in --auth-token-file, with
// duplicates removed. It reads the token file on each call.
func (c Config) InboundTokens() ([]string, error) {
	tokens := append([]string(nil), c.AuthTokens...)
	if c.AuthTokenFile != "" {
		fromFile, err := ReadTokenFile(c.AuthTokenFile)
		if err != nil {
			return nil, err
		}
		tokens = append(tokens, fromFile...)
	}
	return uniqueStrings(tokens), nil
}

// ReadTokenFile reads one token per line, skipping blank lines and lines
// that start with '#'. Surrounding spaces and CR line endings are ignored.
func ReadTokenFile(path string) ([]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("--auth-token-file: %w", err)
	}
	return ParseTokenLines(data), nil
}

// ParseTokenLines extracts tokens from the text of a token file.
func ParseTokenLines(data []byte) []string {
	var tokens []string
	for line := range strings.Lines(string(data)) {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		tokens = append(tokens, line)
	}
	return tokens
}

// tokenName is the form of a caller name in a "name:token" line.
var tokenName = regexp.MustCompile(`^[A-Za-z0-9_.-]{1,64}$`)

// instancesPrefix introduces the instances a token is limited to, after
// the token and a space: "name:token instances=staging,dev". A line without
// it is for every instance (and the one Dagu of a gateway without an
// instances file), as before.
const instancesPrefix = "instances="

// instanceName is the form of an instance name (internal/instances).
var instanceName = regexp.MustCompile(`^[a-z0-9-]{1,32}$`)

// ValidInstanceName reports whether name has the form of an instance name:
// 1 to 32 of a-z, 0-9 and -.
func ValidInstanceName(name string) bool { return instanceName.MatchString(name) }

// splitEntry cuts an entry at its first space: the token part
// ("name:token" or "token") and what follows it.
func splitEntry(entry string) (tokenPart, rest string) {
	entry = strings.TrimSpace(entry)
	i := strings.IndexFunc(entry, unicode.IsSpace)
	if i < 0 {
		return entry, ""
	}
	return entry[:i], strings.TrimSpace(entry[i:])
}

// SplitNamedToken reads a "name:token" entry; an entry whose part before
// the first ':' is not a name is a token without a name. What follows the
// token (its instances) is not part of it.
func SplitNamedToken(entry string) (name, token string) {
	entry, _ = splitEntry(entry)
	if n, t, ok := strings.Cut(entry, ":"); ok && tokenName.MatchString(n) && t != "" {
		return n, t
	}
	return "", entry
}

// TokenInstances reads the instances an entry's token is limited to: nil
// for a token of every instance. The error never includes the token.
func TokenInstances(entry string) ([]string, error) {
	_, rest := splitEntry(entry)
	if rest == "" {
		return nil, nil
	}
	list, ok := strings.CutPrefix(rest, instancesPrefix)
	if !ok || list == "" {
		return nil, errors.New("an inbound token contains spaces or is followed by text other than instances=<name>,<name>: use printable ASCII without spaces for the token (e.g. `openssl rand -hex 32`), optionally followed by a space and instances=staging,dev")
	}
	names := strings.Split(list, ",")
	for _, n := range names {
		if !ValidInstanceName(n) {
			return nil, fmt.Errorf("an inbound token's instances= names %q, not an instance name (1 to 32 of a-z, 0-9 and -; comma-separated, no spaces)", cut(n, 40))
		}
	}
	return uniqueStrings(names), nil
}

// cut shortens s to at most n bytes for a message.
func cut(s string, n int) string {
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}

// CheckToken reports why a token is unfit for an Authorization header or
// too weak, or its instances= list malformed. The error never includes the
// token itself.
func CheckToken(entry string) error {
	if _, err := TokenInstances(entry); err != nil {
		return err
	}
	_, token := SplitNamedToken(entry)
	if len(token) < minTokenLength {
		return fmt.Errorf("an inbound token is shorter than %d characters: generate one with `openssl rand -hex 32`", minTokenLength)
	}
	for _, r := range token {
		if r > unicode.MaxASCII || unicode.IsSpace(r) || unicode.IsControl(r) {
			return errors.New("an inbound token contains spaces, control or non-ASCII characters: use printable ASCII only, e.g. `openssl rand -hex 32`")
		}
	}
	return nil
}

// uniqueStrings drops repeated items, keeping the first occurrence.
func uniqueStrings(items []string) []string {
	seen := make(map[string]bool, len(items))
	var out []string
	for _, item := range items {
		if !seen[item] {
			seen[item] = true
			out = append(out, item)
		}
	}
	return out
}
