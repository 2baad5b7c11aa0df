// SPDX-License-Identifier: Apache-2.0

//go:build !nodemo

package main

import (
	"encoding/json"
	"flag"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

// helpCommands are the command lines whose --help is pinned, by golden
// file name.
var helpCommands = map[string][]string{
	"root":        {"--help"},
	"serve":       {"serve", "--help"},
	"stdio":       {"stdio", "--help"},
	"demo":        {"demo", "--help"},
	"doctor":      {"doctor", "--help"},
	"healthcheck": {"healthcheck", "--help"},
	"version":     {"version", "--help"},
}

// TestHelpGoldens pins every command's --help (the flags grouped by
// purpose, each text wrapped): run with -update after a deliberate change
// and read the diff.
func TestHelpGoldens(t *testing.T) {
	t.Parallel()
	for name, args := range helpCommands {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			code, out, errOut := runCommand(t, nil, args...)
			if code != 0 || errOut != "" {
				t.Fatalf("%v: exit %d, stderr %q", args, code, errOut)
			}
			golden := filepath.Join("testdata", "help", name+".txt")
			if *update {
				if err := os.WriteFile(golden, []byte(out), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if out != string(want) {
				t.Errorf("%v differs from %s (run go test ./cmd/gateway -run TestHelpGoldens -update):\n%s", args, golden, out)
			}
		})
	}
}

// TestHelpFitsTheTerminal: no line of any --help is wider than helpWidth
// (serve's help once had lines of 624 characters).
func TestHelpFitsTheTerminal(t *testing.T) {
	t.Parallel()
	for _, args := range helpCommands {
		_, out, _ := runCommand(t, nil, args...)
		for i, line := range strings.Split(out, "\n") {
			if n := utf8.RuneCountInString(line); n > helpWidth {
				t.Errorf("%v line %d has %d columns, want at most %d: %q", args, i+1, n, helpWidth, line)
			}
		}
	}
}

// TestStdioHelpSnippetWorks: the client entry stdio --help shows is a
// whole Claude Desktop configuration that parses, runs the binary by its
// real name at an absolute path (a desktop app may not search PATH), with
// the stdio argument and the Dagu settings (its key file in the user's
// home, where Desktop can read it). It once said {"command": "gateway"}.
func TestStdioHelpSnippetWorks(t *testing.T) {
	t.Parallel()
	_, out, _ := runCommand(t, nil, "stdio", "--help")
	start := strings.Index(out, `{"mcpServers"`)
	if start < 0 {
		t.Fatalf("stdio --help shows no mcpServers entry:\n%s", out)
	}
	snippet, _, _ := strings.Cut(out[start:], "\n\n")
	var cfg struct {
		MCPServers map[string]struct {
			Command string            `json:"command"`
			Args    []string          `json:"args"`
			Env     map[string]string `json:"env"`
		} `json:"mcpServers"`
	}
	if err := json.Unmarshal([]byte(snippet), &cfg); err != nil {
		t.Fatalf("the snippet does not parse: %v\n%s", err, snippet)
	}
	entry, ok := cfg.MCPServers["dagu"]
	if !ok || len(cfg.MCPServers) != 1 {
		t.Fatalf("the snippet has no single dagu entry: %+v", cfg)
	}
	if !path.IsAbs(entry.Command) || path.Base(entry.Command) != "dagu-mcp-gateway" {
		t.Errorf("command %q is not the binary at an absolute path", entry.Command)
	}
	if strings.Join(entry.Args, " ") != "stdio" {
		t.Errorf("args %q, want [stdio]", entry.Args)
	}
	key := entry.Env["DAGU_API_KEY_FILE"]
	if entry.Env["DAGU_URL"] == "" || !(strings.HasPrefix(key, "/Users/") || strings.HasPrefix(key, "/home/")) {
		t.Errorf("env %q lacks DAGU_URL or a key file in the user's home", entry.Env)
	}
}
