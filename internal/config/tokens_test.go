// SPDX-License-Identifier: Apache-2.0

package config

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestInboundTokens(t *testing.T) {
	t.Parallel()
	file := writeTestFile(t, "tokens", "# rotated monthly\r\n\n  tok-from-file-aaaaaaaa  \r\ntok-flag-bbbbbbbbbbbb\n#tok-commented-out\n")
	tests := []struct {
		name string
		cfg  Config
		want []string
	}{
		{"none", Config{}, nil},
		{"flags only", Config{AuthTokens: []string{"a", "b"}}, []string{"a", "b"}},
		{"flags then file, deduplicated", Config{AuthTokens: []string{"tok-flag-bbbbbbbbbbbb"}, AuthTokenFile: file},
			[]string{"tok-flag-bbbbbbbbbbbb", "tok-from-file-aaaaaaaa"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := tt.cfg.InboundTokens()
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func FuzzParseTokenLines(f *testing.F) {
	for _, s := range []string{"", "a\nb", "# c\r\n  t  \r\n", "\n\n#\n", "x\x00y\n", "0\r0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, tok := range ParseTokenLines([]byte(text)) {
			switch {
			case tok == "":
				t.Fatal("empty token")
			case strings.Contains(tok, "\n"):
				t.Fatalf("token %q spans lines", tok)
			case strings.HasPrefix(tok, "#"):
				t.Fatalf("comment %q taken as a token", tok)
			case strings.TrimSpace(tok) != tok:
				t.Fatalf("token %q keeps surrounding space", tok)
			}
		}
	})
}

func TestConfigRedaction(t *testing.T) {
	t.Parallel()
	const key, token = "dagu_KEY_must_not_leak", "TOKEN_must_not_leak_123"
	c := baseConfig(t)
	c.DaguAPIKey, c.AuthTokens = key, []string{token}

	var logged bytes.Buffer
	slog.New(slog.NewJSONHandler(&logged, nil)).Info("config", "config", c)
	marshalled, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	renderings := map[string]string{
		"String": c.String(),
		"%v":     fmt.Sprintf("%v", c),
		"%+v":    fmt.Sprintf("%+v", c),
		"%#v":    fmt.Sprintf("%#v", c),
		"ptr":    fmt.Sprint(&c),
		"slog":   logged.String(),
		"json":   string(marshalled),
	}
	for name, text := range renderings {
		if strings.Contains(text, key) || strings.Contains(text, token) {
			t.Errorf("%s reveals a secret: %s", name, text)
		}
	}
	for name, text := range map[string]string{"String": c.String(), "slog": logged.String()} {
		for _, want := range []string{"dagu_api_key", "set", "auth_tokens", "dagu.example.com"} {
			if !strings.Contains(text, want) {
				t.Errorf("%s lacks %q: %s", name, want, text)
			}
		}
	}
	if got := (Config{}).String(); !strings.Contains(got, "dagu_api_key=unset") || !strings.Contains(got, "auth_tokens=unset") {
		t.Errorf("empty config should show unset secrets: %s", got)
	}
}

func TestSplitNamedToken(t *testing.T) {
	for entry, want := range map[string][2]string{
		"ops:abcdef0123456789":               {"ops", "abcdef0123456789"},
		"abcdef0123456789":                   {"", "abcdef0123456789"},
		"bad/name:abcdef01234567":            {"", "bad/name:abcdef01234567"},
		"ops:":                               {"", "ops:"},
		"ops:abcdef0123456789 instances=a,b": {"ops", "abcdef0123456789"},
		" abcdef0123456789\tinstances=a ":    {"", "abcdef0123456789"},
	} {
		if n, tok := SplitNamedToken(entry); n != want[0] || tok != want[1] {
			t.Errorf("SplitNamedToken(%q) = %q, %q", entry, n, tok)
		}
	}
}

func TestTokenInstances(t *testing.T) {
	t.Parallel()
	tests := []struct {
		entry string
		want  []string
		err   string
	}{
		{"ops:abcdef0123456789", nil, ""},
		{"abcdef0123456789 instances=staging", []string{"staging"}, ""},
		{"ops:abcdef0123456789  instances=staging,dev,staging", []string{"staging", "dev"}, ""},
		{"abcdef0123456789 instances=", nil, "instances=<name>,<name>"},
		{"abcdef0123456789 hosts=a", nil, "instances=<name>,<name>"},
		{"abcdef0123456789 instances=a, b", nil, `names " b"`},
		{"abcdef0123456789 instances=Prod", nil, `names "Prod"`},
		{"abcdef0123456789 instances=a,,b", nil, `names ""`},
	}
	for _, tt := range tests {
		got, err := TokenInstances(tt.entry)
		if tt.err == "" && (err != nil || !slices.Equal(got, tt.want)) || tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)) {
			t.Errorf("TokenInstances(%q) = %v, %v; want %v, %q", tt.entry, got, err, tt.want, tt.err)
		}
		if err != nil && strings.Contains(err.Error(), "abcdef0123456789") {
			t.Errorf("the error reveals the token: %v", err)
		}
		if tt.err != "" && CheckToken(tt.entry) == nil {
			t.Errorf("CheckToken(%q) accepted a malformed list", tt.entry)
		}
	}
}
