// SPDX-License-Identifier: Apache-2.0

package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/config"
	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu/fakedagutest"
	"github.com/dagu-mcp-gateway/gateway/internal/testkit"
)

// runCommand runs one command line in process and returns its exit code
// and output.
func runCommand(t *testing.T, env map[string]string, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), args, environment{
		stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr,
		getenv: func(k string) string { return env[k] },
	})
	return code, stdout.String(), stderr.String()
}

func TestVersion(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"version"}, {"--version"}, {"-v"}} {
		code, out, _ := runCommand(t, nil, args...)
		if code != 0 || !strings.HasPrefix(out, "dagu-mcp-gateway dev (go") || strings.Count(out, "\n") != 1 {
			t.Errorf("%s: %d %q", args, code, out)
		}
	}
}

// TestHelpExplainsEverySubcommand: --help works everywhere and names the
// environment variables of the settings each subcommand takes.
func TestHelpExplainsEverySubcommand(t *testing.T) {
	t.Parallel()
	for cmd, want := range map[string][]string{
		"serve":       {"DAGU_URL", "--listen", "GATEWAY_AUTH_TOKENS"},
		"stdio":       {"DAGU_URL", "GATEWAY_TEXT_CONTENT"},
		"demo":        {"--listen", "DAGU_API_KEY", "--dagu-profile"},
		"doctor":      {"DAGU_URL", "DAGU_API_KEY_FILE"},
		"healthcheck": {"GATEWAY_LISTEN", "--timeout"},
	} {
		t.Run(cmd, func(t *testing.T) {
			t.Parallel()
			code, out, _ := runCommand(t, nil, cmd, "--help")
			for _, w := range want {
				if code != 0 || !strings.Contains(out, w) {
					t.Fatalf("%s --help: %d, lacks %s\n%s", cmd, code, w, out)
				}
			}
		})
	}
	code, out, _ := runCommand(t, nil, "--help")
	for _, sub := range []string{"serve", "stdio", "demo", "doctor", "version"} {
		if code != 0 || !strings.Contains(out, sub) {
			t.Fatalf("root help lacks %s:\n%s", sub, out)
		}
	}
}

// TestSubcommandsTakeOnlyTheirSettings: each subcommand has the flag of
// every setting whose row names it and no other, so `stdio --listen` is
// refused with a message naming the subcommands that use --listen.
func TestSubcommandsTakeOnlyTheirSettings(t *testing.T) {
	t.Parallel()
	root := newRootCommand(environment{getenv: mapEnv(nil)})
	for _, mode := range []config.Mode{config.ModeServe, config.ModeStdio, config.ModeDemo, config.ModeDoctor, config.ModeHealthcheck} {
		cmd, _, err := root.Find([]string{string(mode)})
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range config.Settings() {
			if has := cmd.Flags().Lookup(s.Flag) != nil; has != s.UsedBy(mode) {
				t.Errorf("%s has --%s: %v; the settings table says %v", mode, s.Flag, has, s.UsedBy(mode))
			}
		}
	}
	for _, args := range [][]string{
		{"stdio", "--listen", "0.0.0.0:9999"},
		{"stdio", "--metrics-listen=127.0.0.1:9100"},
		{"demo", "--dagu-url", "http://dagu.invalid"},
		{"doctor", "--log-level", "debug"},
	} {
		code, _, errOut := runCommand(t, nil, args...)
		if code != 2 || !strings.Contains(errOut, "unknown flag") || !strings.Contains(errOut, args[0]+" does not use it (it is a setting of serve") {
			t.Errorf("%v: exit %d, stderr %q", args, code, errOut)
		}
	}
}

func TestServeRefusesBadConfiguration(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no dagu url", []string{"serve"}, "--dagu-url"},
		{"public listen without token", []string{"serve", "--dagu-url", "http://dagu.invalid", "--listen", "0.0.0.0:8090"}, "--auth-token"},
		{"unknown flag", []string{"serve", "--nope"}, "unknown flag"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, errOut := runCommand(t, nil, tt.args...)
			if code == 0 || !strings.Contains(errOut, tt.want) {
				t.Fatalf("exit %d, stderr:\n%s", code, errOut)
			}
		})
	}
}

// TestDoctor runs doctor against every Dagu release the fake imitates: it
// finds the REST base, the capabilities and how each target is served.
func TestDoctor(t *testing.T) {
	t.Parallel()
	tests := []struct {
		profile fakedagu.Profile
		want    []string
	}{
		{fakedagu.ProfileCurrent, []string{"/api/v1", "foreachRoutes      no", "wiki           served", "foreach_items  emulated"}},
		{fakedagu.Profile26, []string{"/api/v1", "docs               yes", "wiki           emulated", "dag_search     served", "runs           served"}},
		{fakedagu.Profile20, []string{"/api/v1", "OpenAPI doc:  no", "wiki           emulated", "dag_search     emulated", "runs           emulated"}},
		{fakedagu.Profile129, []string{"/api/v2", "wiki           unavailable", "dag_search     emulated", "runs           emulated", "foreach_items  unavailable"}},
		{fakedagu.Profile117, []string{"/api/v2", "subRuns            no", "childRuns          yes", "run            served: attemptId omitted"}},
	}
	for _, tt := range tests {
		t.Run(string(tt.profile), func(t *testing.T) {
			_, url := fakedagutest.Start(t, fakedagu.Options{APIKey: fakedagutest.APIKey, Foreach: fakedagu.ForeachAggregate, Profile: tt.profile})
			code, out, _ := runCommand(t, map[string]string{"DAGU_URL": url, "DAGU_API_KEY": fakedagutest.APIKey}, "doctor")
			if code != 0 {
				t.Fatalf("doctor: %d\n%s", code, out)
			}
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("doctor output lacks %q:\n%s", w, out)
				}
			}
			if tt.profile == fakedagu.Profile117 {
				checkUnavailable(t, out, "wiki", "wiki_page", "wiki_search", "foreach_items", "foreach_item")
			}
		})
	}
	_, url := fakedagutest.Start(t, fakedagu.Options{APIKey: fakedagutest.APIKey})
	code, out, _ := runCommand(t, map[string]string{"DAGU_URL": url, "DAGU_API_KEY": "dagu_not_the_right_key"}, "doctor")
	if code != 1 || !strings.Contains(out, "auth") || strings.Contains(out, "dagu_not_the_right_key") {
		t.Fatalf("doctor with a wrong key: %d\n%s", code, out)
	}
}

// TestDemo starts `gateway demo`, reads the MCP URL from its banner and
// makes a tool call over plain HTTP, as the README tells a newcomer to.
func TestDemo(t *testing.T) {
	t.Parallel()
	demo := startDemo(t, "--log-level", "error")
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"dagu_read","arguments":{"target":"runs","query":"status=2"}}}`
	req, _ := http.NewRequest(http.MethodPost, demo.endpoint, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var reply struct {
		Result struct {
			StructuredContent struct {
				Data struct {
					Items []map[string]any `json:"items"`
				} `json:"data"`
			} `json:"structuredContent"`
		} `json:"result"`
	}
	_ = json.NewDecoder(res.Body).Decode(&reply)
	_ = res.Body.Close()
	if len(reply.Result.StructuredContent.Data.Items) == 0 {
		t.Fatalf("the demo listed no failed runs (status %d)", res.StatusCode)
	}
	demo.stop(t)
}

// runningDemo is `gateway demo` run by this process's run.
type runningDemo struct {
	stdout, stderr testkit.LogBuffer
	endpoint       string // the MCP URL of its banner
	cancel         context.CancelFunc
	done           chan int // its exit code
}

// startDemo runs `gateway demo --listen 127.0.0.1:0 --dagu-port 0` (free
// ports: tests run demos side by side) with args and waits for its banner.
func startDemo(t *testing.T, args ...string) *runningDemo {
	t.Helper()
	return startDemoEnv(t, nil, append([]string{"--dagu-port", "0"}, args...)...)
}

// startDemoEnv runs `gateway demo --listen 127.0.0.1:0` with args and env
// as its whole environment, and waits for its banner.
func startDemoEnv(t *testing.T, env map[string]string, args ...string) *runningDemo {
	t.Helper()
	d := &runningDemo{done: make(chan int, 1)}
	var ctx context.Context
	ctx, d.cancel = context.WithCancel(context.Background())
	t.Cleanup(d.cancel) // a test that fails before stop still ends the demo
	go func() {
		d.done <- run(ctx, append([]string{"demo", "--listen", "127.0.0.1:0"}, args...), environment{
			stdin: strings.NewReader(""), stdout: &d.stdout, stderr: &d.stderr, getenv: mapEnv(env),
		})
	}()
	d.endpoint = waitForBanner(t, &d.stdout, d.done)
	return d
}

// stop cancels the demo and fails the test unless it exits 0. No deadline
// of its own: on a loaded machine any fixed one can pass; a gateway that
// does not stop fails the test at go test's timeout, with every
// goroutine's stack.
func (d *runningDemo) stop(t *testing.T) {
	t.Helper()
	d.cancel()
	if code := <-d.done; code != 0 {
		t.Fatalf("demo exited %d", code)
	}
}

var mcpURL = regexp.MustCompile(`http://127\.0\.0\.1:\d+/mcp`)

// waitForBanner returns the MCP URL of the demo's banner once it is
// printed; it fails the test if the demo exits first (done delivers its
// exit code). There is no deadline: how long start-up takes on a loaded
// machine is not what the tests check.
func waitForBanner(t *testing.T, out *testkit.LogBuffer, done <-chan int) string {
	t.Helper()
	for {
		sc := bufio.NewScanner(strings.NewReader(out.String()))
		for sc.Scan() {
			if u := mcpURL.FindString(sc.Text()); u != "" {
				return u
			}
		}
		select {
		case code := <-done:
			t.Fatalf("the demo exited %d before its banner:\n%s", code, out.String())
		case <-time.After(20 * time.Millisecond): // polling pace
		}
	}
}

func TestDemoRefusesAnUnknownProfile(t *testing.T) {
	t.Parallel()
	code, _, errOut := runCommand(t, nil, "demo", "--dagu-profile", "0.9", "--listen", "127.0.0.1:0")
	if code == 0 || !strings.Contains(errOut, "1.29") {
		t.Fatalf("demo with an unknown profile: exit %d, stderr %q", code, errOut)
	}
}

// checkUnavailable checks that doctor reports exactly these targets as
// unavailable.
func checkUnavailable(t *testing.T, out string, want ...string) {
	t.Helper()
	var got []string
	for _, line := range strings.Split(out, "\n") {
		if f := strings.Fields(line); len(f) >= 2 && strings.HasPrefix(f[1], "unavailable") {
			got = append(got, f[0])
		}
	}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("unavailable targets %v, want %v:\n%s", got, want, out)
	}
}

// TestHelpNeverPrintsTheEnvironment: a flag's help shows the default of
// the settings table, never a value of the environment, so --help cannot
// print a key or token set there. Every setting's variable (and the other
// variables the commands read) is set to a sentinel.
func TestHelpNeverPrintsTheEnvironment(t *testing.T) {
	t.Parallel()
	const sentinel = "sentinel-secret-9b4d7e11"
	env := map[string]string{"DAGU_MCP_KEY": sentinel, "OTEL_EXPORTER_OTLP_HEADERS": sentinel}
	for _, s := range config.Settings() {
		env[s.Env] = sentinel
	}
	for _, args := range [][]string{{"--help"}, {"serve", "--help"}, {"stdio", "--help"}, {"demo", "--help"}, {"doctor", "--help"}, {"healthcheck", "--help"}, {"version", "--help"}} {
		code, out, errOut := runCommand(t, env, args...)
		if code != 0 || strings.Contains(out+errOut, sentinel) {
			t.Errorf("%v: exit %d, output carries the environment's value:\n%s%s", args, code, out, errOut)
		}
	}
	for _, s := range config.Settings() {
		if s.Secret && s.Default != "" {
			t.Errorf("secret setting --%s has a default %q: --help would print it", s.Flag, s.Default)
		}
	}
}

// TestMessagesNameTheBinary: the help of every command and the
// healthcheck's failure line write commands and their own prefix with the
// binary's name, as main's error lines do ("dagu-mcp-gateway: ..."), never
// as "gateway doctor", a command no install provides.
func TestMessagesNameTheBinary(t *testing.T) {
	t.Parallel()
	short := regexp.MustCompile(`(^|[^-\w])gateway (serve|stdio|demo|doctor|healthcheck)\b`)
	for _, args := range [][]string{{"--help"}, {"serve", "--help"}, {"stdio", "--help"}, {"demo", "--help"}, {"doctor", "--help"}, {"healthcheck", "--help"}, {"version", "--help"}, {"healthcheck", "--listen", "127.0.0.1:0"}} {
		_, out, errOut := runCommand(t, nil, args...)
		if m := short.FindString(out + errOut); m != "" {
			t.Errorf("%v writes %q: the binary is dagu-mcp-gateway\n%s%s", args, m, out, errOut)
		}
	}
}
