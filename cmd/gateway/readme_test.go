// SPDX-License-Identifier: Apache-2.0

package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu/fakedagutest"
	"github.com/dagu-mcp-gateway/gateway/internal/readtool"
)

// The README's commands, run as written (issue 21, row "Config and docs":
// the quick start failed on a fresh HOME, the Claude Desktop example read
// a key from a root-only directory, and the Clients section claimed an
// output schema the tool does not advertise).

// readme is the repository's README.md.
func readme(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// quickStartBlock is the shell block of the README's quick start.
func quickStartBlock(t *testing.T) []string {
	t.Helper()
	text := readme(t)
	_, section, ok := strings.Cut(text, "## Quick start against a real Dagu")
	if !ok {
		t.Fatal("README.md has no quick start")
	}
	m := regexp.MustCompile("(?s)```sh\n(.*?)```").FindStringSubmatch(section)
	if m == nil {
		t.Fatal("the quick start has no shell block")
	}
	var lines []string
	for _, l := range strings.Split(m[1], "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	return lines
}

// TestQuickStartOnAFreshHome runs the quick start's key line with sh on an
// empty HOME (with the fake Dagu's key in place of the placeholder), then
// doctor with the variables of its doctor line: the key file is made,
// readable only by its owner, and Dagu accepts what it holds.
func TestQuickStartOnAFreshHome(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("sh"); err != nil {
		t.Fatal("sh is needed to run the README's commands")
	}
	var keyLine, doctorLine string
	for _, l := range quickStartBlock(t) {
		switch {
		case strings.Contains(l, "dagu_...your key..."):
			keyLine = l
		case strings.HasSuffix(l, "bin/dagu-mcp-gateway doctor"):
			doctorLine = l
		}
	}
	if keyLine == "" || doctorLine == "" {
		t.Fatalf("the quick start lacks the key or doctor line: %q", quickStartBlock(t))
	}
	home := t.TempDir()
	cmd := exec.Command("sh", "-c", strings.ReplaceAll(keyLine, "dagu_...your key...", fakedagutest.APIKey))
	cmd.Env = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH")}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s on a fresh HOME: %v\n%s", keyLine, err, out)
	}
	m := regexp.MustCompile(`DAGU_API_KEY_FILE=~/(\S+)`).FindStringSubmatch(doctorLine)
	if m == nil {
		t.Fatalf("the doctor line names no key file under ~: %q", doctorLine)
	}
	keyFile := filepath.Join(home, m[1])
	info, err := os.Stat(keyFile)
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("key file %s: %v, mode %v", keyFile, err, info)
	}
	_, url := fakedagutest.Start(t, fakedagu.Options{APIKey: fakedagutest.APIKey})
	code, out, _ := runCommand(t, map[string]string{"DAGU_URL": url, "DAGU_API_KEY_FILE": keyFile}, "doctor")
	if code != 0 || !strings.Contains(out, "the API key is accepted") {
		t.Fatalf("doctor with the quick start's key file: %d\n%s", code, out)
	}
}

// TestClaudeDesktopExampleReadsTheUsersKey: Desktop starts the gateway as
// the user, so the example's key file lives in the user's home, not in the
// root-only /etc/dagu-mcp-gateway of the systemd setup.
func TestClaudeDesktopExampleReadsTheUsersKey(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(filepath.Join("..", "..", "deploy", "examples", "claude_desktop_config.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cfg struct {
		MCPServers map[string]struct {
			Env map[string]string `json:"env"`
		} `json:"mcpServers"`
	}
	if err := json.Unmarshal(data, &cfg); err != nil {
		t.Fatal(err)
	}
	files := []string{cfg.MCPServers["dagu"].Env["DAGU_API_KEY_FILE"]}
	_, desktop, _ := strings.Cut(readme(t), "### Claude Desktop")
	desktop, _, _ = strings.Cut(desktop, "\n### ")
	for _, m := range regexp.MustCompile(`"DAGU_API_KEY_FILE": "([^"]+)"`).FindAllStringSubmatch(desktop, -1) {
		files = append(files, m[1])
	}
	for _, f := range files {
		if !strings.HasPrefix(f, "/Users/") && !strings.HasPrefix(f, "/home/") {
			t.Errorf("a Claude Desktop example reads its key from %q, not from the user's home", f)
		}
	}
}

// TestREADMEClaimsNoOutputSchema: the README may say the SDK validates
// structuredContent against an output schema only if the tool has one.
func TestREADMEClaimsNoOutputSchema(t *testing.T) {
	t.Parallel()
	if readtool.Definition().OutputSchema != nil {
		return
	}
	if text := readme(t); regexp.MustCompile(`validates every\s+` + "`structuredContent`" + `\s+against`).MatchString(text) {
		t.Error("README.md says the SDK validates structuredContent against the tool's output schema; the tool advertises none")
	}
}

// TestDocsNameTheBinary: the README and the changelog write a command a
// reader types with the binary's name, dagu-mcp-gateway (what make build,
// the archives, the image and the unit install), never as `gateway serve`,
// which no install provides.
func TestDocsNameTheBinary(t *testing.T) {
	t.Parallel()
	short := regexp.MustCompile("`gateway (serve|stdio|demo|doctor|version|healthcheck|completion|--version)\\b")
	for _, name := range []string{"README.md", "CHANGELOG.md"} {
		data, err := os.ReadFile(filepath.Join("..", "..", name))
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(data), "\n") {
			if m := short.FindString(line); m != "" {
				t.Errorf("%s:%d writes %s`: the binary is dagu-mcp-gateway", name, i+1, m)
			}
		}
	}
}
