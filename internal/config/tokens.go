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

// SplitNamedToken reads a "name:token" entry; an entry whose part before
// the first ':' is not a name is a token without a name.
func SplitNamedToken(entry string) (name, token string) {
	if n, t, ok := strings.Cut(entry, ":"); ok && tokenName.MatchString(n) && t != "" {
		return n, t
	}
	return "", entry
}

// CheckToken reports why a token is unfit for an Authorization header or
// too weak. The error never includes the token itself.
func CheckToken(entry string) error {
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
