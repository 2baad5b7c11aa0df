// SPDX-License-Identifier: Apache-2.0

package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu/fakedagutest"
	"github.com/dagu-mcp-gateway/gateway/internal/readtool"
)

// The documentation's commands, run as written (issue 21, row "Config and
// docs": the quick start failed on a fresh HOME, the Claude Desktop example
// read a key from a root-only directory, and the Clients section claimed an
// output schema the tool does not advertise; issue 36: the quick start never
// said how to create the Dagu key).

// repoDoc is a documentation file of the repository, by its path from the
// root (README.md, docs/clients.md).
func repoDoc(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", filepath.FromSlash(name)))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// docsFiles are the repository's Markdown files a reader follows: the
// README, the contributing guide, the changelog and every page of docs/.
func docsFiles(t *testing.T) []string {
	t.Helper()
	pages, err := filepath.Glob(filepath.Join("..", "..", "docs", "*.md"))
	if err != nil || len(pages) == 0 {
		t.Fatalf("no docs/*.md: %v", err)
	}
	names := []string{"README.md", "CONTRIBUTING.md", "CHANGELOG.md"}
	for _, p := range pages {
		names = append(names, "docs/"+filepath.Base(p))
	}
	return names
}

// quickStartBlocks are the shell blocks of the README's quick start, in
// order: the key's creation, the gateway's build and start, the first read.
func quickStartBlocks(t *testing.T) []string {
	t.Helper()
	_, section, ok := strings.Cut(repoDoc(t, "README.md"), "\n## Quick start against a real Dagu\n")
	if !ok {
		t.Fatal("README.md has no quick start")
	}
	section, _, _ = strings.Cut(section, "\n## ")
	var blocks []string
	for _, m := range regexp.MustCompile("(?s)```sh\n(.*?)```").FindAllStringSubmatch(section, -1) {
		blocks = append(blocks, m[1])
	}
	if len(blocks) != 3 {
		t.Fatalf("the quick start has %d shell blocks, want 3 (create the key, build and run, the first read)", len(blocks))
	}
	return blocks
}

// The placeholders of the quick start's key block.
const (
	quickStartDaguURL  = "https://dagu.example.com"
	quickStartPassword = "<admin password>"
	quickStartMCPURL   = "http://127.0.0.1:8090/mcp"
)

// daguAdminAPI stands in for the two calls of a current Dagu the quick
// start makes (its /api/v1 admin login and key creation). It answers in the
// shape a Dagu built from source answered them (its head of 2026-08: the
// fields and their order, with made-up values) and checks what Dagu's API
// description requires of a key's creation (name, role, allowedSurfaces,
// attributionClass) and what the gateway needs of the key (the rest_api
// surface), recording what went wrong for the test to report.
type daguAdminAPI struct {
	password, session, key string

	mu       sync.Mutex // the server's goroutines write problems, the test reads them
	problems []string
}

// failures are the problems recorded so far.
func (d *daguAdminAPI) failures() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return slices.Clone(d.problems)
}

func (d *daguAdminAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	d.mu.Lock()
	defer d.mu.Unlock()
	var body map[string]any
	if r.Method != http.MethodPost || json.NewDecoder(r.Body).Decode(&body) != nil {
		d.problems = append(d.problems, r.Method+" "+r.URL.Path+" without a JSON body")
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	switch r.URL.Path {
	case "/api/v1/auth/login":
		if body["username"] != "admin" || body["password"] != d.password {
			d.problems = append(d.problems, "the login sent neither the admin's name nor the password")
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		_, _ = w.Write([]byte(`{"expiresAt":"2026-12-08T14:34:08Z","token":"` + d.session + `","user":{"authProvider":"builtin",` +
			`"createdAt":"2026-12-07T14:33:54Z","id":"u1","role":"admin","updatedAt":"2026-12-07T14:33:54Z","username":"admin",` +
			`"workspaceAccess":{"all":true,"grants":[]}}}`))
	case "/api/v1/api-keys":
		d.checkKeyRequest(r, body)
		if len(d.problems) > 0 {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		w.WriteHeader(http.StatusCreated)
		_, _ = w.Write([]byte(`{"apiKey":{"allowedSurfaces":["rest_api"],"attributionClass":"service_account",` +
			`"createdAt":"2026-12-07T14:34:27Z","createdBy":"u1","id":"k1","keyPrefix":"dagu_tes","lastUsedAt":null,` +
			`"name":"dagu-mcp-gateway","role":"viewer","serviceAccountId":"api_key:k1","serviceAccountName":"dagu-mcp-gateway",` +
			`"updatedAt":"2026-12-07T14:34:27Z","workspaceAccess":{"all":true,"grants":[]}},"key":"` + d.key + `"}`))
	default:
		d.problems = append(d.problems, "a call to "+r.URL.Path)
		w.WriteHeader(http.StatusNotFound)
	}
}

// checkKeyRequest records what a key creation lacks.
func (d *daguAdminAPI) checkKeyRequest(r *http.Request, body map[string]any) {
	if r.Header.Get("Authorization") != "Bearer "+d.session {
		d.problems = append(d.problems, "the key creation does not carry the login's token")
	}
	for _, field := range []string{"name", "role", "allowedSurfaces", "attributionClass"} {
		if body[field] == nil {
			d.problems = append(d.problems, "the key creation lacks "+field)
		}
	}
	surfaces, _ := body["allowedSurfaces"].([]any)
	if !slices.Contains(surfaces, any("rest_api")) {
		d.problems = append(d.problems, "the key lacks the rest_api surface")
	}
	if c := body["attributionClass"]; c != "service_account" && c != "user_owned" {
		d.problems = append(d.problems, "attributionClass is not one Dagu knows")
	}
}

// runShell runs a documented block with sh -e on the given HOME.
func runShell(t *testing.T, home, script string) string {
	t.Helper()
	for _, tool := range []string{"sh", "curl", "sed"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is needed to run the documentation's commands", tool)
		}
	}
	cmd := exec.Command("sh", "-ec", script)
	cmd.Env = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH")}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s\non a fresh HOME: %v\n%s", script, err, out)
	}
	return string(out)
}

// TestQuickStartOnAFreshHome runs the README's quick start on an empty
// HOME: its key block against a stand-in of Dagu's admin API (the key file
// is made, readable only by its owner, and holds the key Dagu answered),
// doctor with the variables of its doctor line against a fake Dagu that
// accepts that key, and its first read against a running demo.
func TestQuickStartOnAFreshHome(t *testing.T) {
	t.Parallel()
	blocks := quickStartBlocks(t)
	home := t.TempDir()

	admin := &daguAdminAPI{password: "quick-start-password", session: "session-token-of-the-login", key: fakedagutest.APIKey}
	stub := httptest.NewServer(admin)
	defer stub.Close()
	if !strings.Contains(blocks[0], quickStartDaguURL) || !strings.Contains(blocks[0], quickStartPassword) {
		t.Fatalf("the key block lacks the placeholders %q and %q:\n%s", quickStartDaguURL, quickStartPassword, blocks[0])
	}
	keyBlock := strings.NewReplacer(quickStartDaguURL, stub.URL, quickStartPassword, admin.password).Replace(blocks[0])
	runShell(t, home, keyBlock)
	if problems := admin.failures(); len(problems) > 0 {
		t.Fatalf("the key block's calls: %s", strings.Join(problems, "; "))
	}

	m := regexp.MustCompile(`DAGU_API_KEY_FILE=~/(\S+) \S*dagu-mcp-gateway doctor`).FindStringSubmatch(blocks[1])
	if m == nil || !strings.Contains(blocks[1], "DAGU_API_KEY_FILE=~/"+m[1]+" bin/dagu-mcp-gateway serve") {
		t.Fatalf("the run block does not start doctor and serve with one key file under ~:\n%s", blocks[1])
	}
	keyFile := filepath.Join(home, m[1])
	info, err := os.Stat(keyFile)
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("key file %s: %v, mode %v", keyFile, err, info)
	}
	if data, _ := os.ReadFile(keyFile); string(data) != fakedagutest.APIKey {
		t.Fatalf("the key file holds %q, not the key Dagu answered", data)
	}
	_, url := fakedagutest.Start(t, fakedagu.Options{APIKey: fakedagutest.APIKey})
	code, out, _ := runCommand(t, map[string]string{"DAGU_URL": url, "DAGU_API_KEY_FILE": keyFile}, "doctor")
	if code != 0 || !strings.Contains(out, "the API key is accepted") {
		t.Fatalf("doctor with the quick start's key file: %d\n%s", code, out)
	}

	if !strings.Contains(blocks[2], quickStartMCPURL) {
		t.Fatalf("the first read does not call %s:\n%s", quickStartMCPURL, blocks[2])
	}
	demo := startDemo(t, "--log-level", "error")
	answer := runShell(t, home, strings.ReplaceAll(blocks[2], quickStartMCPURL, demo.endpoint))
	if !strings.Contains(answer, `"failing_job"`) || strings.Contains(answer, `"isError":true`) {
		t.Fatalf("the first read answered:\n%s", answer)
	}
	demo.stop(t)
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
	_, desktop, ok := strings.Cut(repoDoc(t, "docs/clients.md"), "\n## Claude Desktop\n")
	if !ok {
		t.Fatal("docs/clients.md has no Claude Desktop section")
	}
	desktop, _, _ = strings.Cut(desktop, "\n## ")
	for _, m := range regexp.MustCompile(`"DAGU_API_KEY_FILE": "([^"]+)"`).FindAllStringSubmatch(desktop, -1) {
		files = append(files, m[1])
	}
	if len(files) < 2 {
		t.Fatal("docs/clients.md's Claude Desktop section shows no key file")
	}
	for _, f := range files {
		if !strings.HasPrefix(f, "/Users/") && !strings.HasPrefix(f, "/home/") {
			t.Errorf("a Claude Desktop example reads its key from %q, not from the user's home", f)
		}
	}
}

// TestDocsClaimNoOutputSchema: the docs may say the SDK validates
// structuredContent against an output schema only if the tool has one.
func TestDocsClaimNoOutputSchema(t *testing.T) {
	t.Parallel()
	if readtool.Definition().OutputSchema != nil {
		return
	}
	claim := regexp.MustCompile(`validates every\s+` + "`structuredContent`" + `\s+against`)
	for _, name := range docsFiles(t) {
		if claim.MatchString(repoDoc(t, name)) {
			t.Errorf("%s says the SDK validates structuredContent against the tool's output schema; the tool advertises none", name)
		}
	}
}

// TestDocsNameTheBinary: the docs and the changelog write a command a
// reader types with the binary's name, dagu-mcp-gateway (what make build,
// the archives, the image and the unit install), never as `gateway serve`,
// which no install provides.
func TestDocsNameTheBinary(t *testing.T) {
	t.Parallel()
	short := regexp.MustCompile("`gateway (serve|stdio|demo|doctor|version|healthcheck|completion|--version)\\b")
	for _, name := range docsFiles(t) {
		for i, line := range strings.Split(repoDoc(t, name), "\n") {
			if m := short.FindString(line); m != "" {
				t.Errorf("%s:%d writes %s`: the binary is dagu-mcp-gateway", name, i+1, m)
			}
		}
	}
}
