// SPDX-License-Identifier: Apache-2.0

package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu/fakedagutest"
	"github.com/dagu-mcp-gateway/gateway/internal/testkit"
)

// instancesFile writes an instances file of fakes (name -> profile), each
// accepting fakedagutest.APIKey from a key file, and returns its path.
func instancesFile(t *testing.T, fakes map[string]fakedagu.Profile, order ...string) string {
	t.Helper()
	dir := t.TempDir()
	key := filepath.Join(dir, "key")
	if err := os.WriteFile(key, []byte(fakedagutest.APIKey), 0o600); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("instances:\n")
	for _, name := range order {
		_, url := fakedagutest.Start(t, fakedagu.Options{APIKey: fakedagutest.APIKey, Profile: fakes[name]})
		fmt.Fprintf(&b, "  - name: %s\n    url: %s\n    apiKeyFile: %s\n", name, url, key)
	}
	path := filepath.Join(dir, "instances.yaml")
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestDoctorChecksEveryInstance: doctor --instances checks each instance
// under its name (--instance: one), and exits 1 when any is not usable.
func TestDoctorChecksEveryInstance(t *testing.T) {
	t.Parallel()
	file := instancesFile(t, map[string]fakedagu.Profile{"old": fakedagu.Profile129, "current": fakedagu.ProfileCurrent}, "old", "current")
	code, out, errOut := runCommand(t, nil, "doctor", "--instances", file)
	if code != 0 {
		t.Fatalf("doctor: exit %d\n%s%s", code, out, errOut)
	}
	old, current, found := strings.Cut(out, "Instance current (")
	if !found || !strings.HasPrefix(old, "Instance old (") || !strings.Contains(old, "/api/v2") || !strings.Contains(current, "/api/v1") {
		t.Fatalf("doctor did not report each instance with its own REST base:\n%s", out)
	}

	code, out, _ = runCommand(t, nil, "doctor", "--instances", file, "--instance", "current")
	if code != 0 || strings.Contains(out, "Instance old") || !strings.Contains(out, "Instance current") {
		t.Fatalf("doctor --instance current: exit %d\n%s", code, out)
	}

	broken := filepath.Join(t.TempDir(), "instances.yaml")
	data, _ := os.ReadFile(file)
	data = append(data, "  - name: down\n    url: http://127.0.0.1:1\n    apiKeyFile: "...)
	data = append(data, filepath.Join(filepath.Dir(file), "key")+"\n"...)
	if err := os.WriteFile(broken, data, 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, _ = runCommand(t, nil, "doctor", "--instances", broken)
	if code != 1 || !strings.Contains(out, "Instance current") || !strings.Contains(out, "Instance down") ||
		!strings.Contains(out, "Check the URL (the instance's url in "+broken+")") || !strings.Contains(out, "(the instance's apiKeyFile in "+broken+")") {
		t.Fatalf("doctor with a Dagu down: exit %d, want 1 after checking every instance\n%s", code, out)
	}
}

// TestDoctorChecksTheOthersPastAnUnusableKeyFile: an instance whose key
// file is missing, or that has none (passthrough), is reported under its
// name and the other instances are still checked; doctor exits 1.
func TestDoctorChecksTheOthersPastAnUnusableKeyFile(t *testing.T) {
	t.Parallel()
	file := instancesFile(t, map[string]fakedagu.Profile{"current": fakedagu.ProfileCurrent}, "current")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(t.TempDir(), "missing.key")
	data = append([]byte("instances:\n  - name: gone\n    url: http://127.0.0.1:1\n    apiKeyFile: "+missing+"\n"), bytes.TrimPrefix(data, []byte("instances:\n"))...)
	broken := filepath.Join(t.TempDir(), "instances.yaml")
	if err := os.WriteFile(broken, data, 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCommand(t, nil, "doctor", "--instances", broken)
	if code != 1 || !strings.Contains(out, "Instance gone (") || !strings.Contains(out, "cannot check it: ") || !strings.Contains(out, missing) ||
		!strings.Contains(out, "Instance current (") || !strings.Contains(out, "the API key is accepted") {
		t.Fatalf("doctor with a missing key file: exit %d, want 1 after checking the other instance\n%s%s", code, out, errOut)
	}
	code, _, errOut = runCommand(t, nil, "stdio", "--instances", broken, "--instance", "gone")
	if code == 0 || !strings.Contains(errOut, missing) {
		t.Fatalf("stdio of an instance without a usable key: exit %d, stderr %q", code, errOut)
	}
}

// TestInstanceFlagErrors: --instance names an instance of the file, needs
// the file, and stdio without it serves the one named default or says to
// choose.
func TestInstanceFlagErrors(t *testing.T) {
	t.Parallel()
	file := instancesFile(t, map[string]fakedagu.Profile{"prod": fakedagu.ProfileCurrent, "staging": fakedagu.Profile26}, "prod", "staging")
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"doctor", "--instances", file, "--instance", "dev"}, `--instance "dev": the instances file has no instance by that name; it names prod, staging`},
		{[]string{"stdio", "--instances", file}, "names prod, staging and none is default: choose one with --instance NAME"},
		{[]string{"stdio", "--dagu-url", "http://127.0.0.1:1", "--instance", "prod"}, "--instance prod needs --instances"},
	}
	for _, tt := range tests {
		code, _, errOut := runCommand(t, nil, tt.args...)
		if code == 0 || !strings.Contains(errOut, tt.want) {
			t.Errorf("%v: exit %d, stderr %q, want %q", tt.args, code, errOut, tt.want)
		}
	}
}

// TestStdioServesTheNamedInstance: stdio --instance reads that instance's
// Dagu (its own run of failing_job).
func TestStdioServesTheNamedInstance(t *testing.T) {
	t.Parallel()
	file := instancesFile(t, map[string]fakedagu.Profile{"old": fakedagu.Profile129, "current": fakedagu.ProfileCurrent}, "old", "current")
	runs := map[string]string{}
	for _, name := range []string{"old", "current"} {
		out := stdioSession(t, "--instances", file, "--instance", name)
		i := strings.Index(out, `"dagRunId":"`)
		if i < 0 {
			t.Fatalf("stdio --instance %s: no run in\n%s", name, out)
		}
		runs[name], _, _ = strings.Cut(out[i+len(`"dagRunId":"`):], `"`)
	}
	if runs["old"] == runs["current"] {
		t.Fatalf("both instances answered run %s", runs["old"])
	}
}

// stdioSession runs stdio with args, sends initialize and reads the latest
// failing_job run once, and returns what it wrote to stdout once the read
// was answered, then closes its stdin.
func stdioSession(t *testing.T, args ...string) string {
	t.Helper()
	in, feed := io.Pipe()
	out := &testkit.LogBuffer{}
	var stderr bytes.Buffer
	done := make(chan int, 1)
	go func() {
		done <- run(context.Background(), append([]string{"stdio"}, args...), environment{
			stdin: in, stdout: out, stderr: &stderr, getenv: func(string) string { return "" },
		})
	}()
	send := func(line string) {
		if _, err := io.WriteString(feed, line+"\n"); err != nil {
			t.Fatalf("stdio %v exited early: %v", args, err)
		}
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"dagu_read","arguments":{"target":"run","name":"failing_job","dagRunId":"latest"}}}`)
	for range 1000 {
		if strings.Contains(out.String(), `"id":2,`) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	_ = feed.Close()
	if code := <-done; code != 0 {
		t.Fatalf("stdio %v: exit %d\n%s", args, code, stderr.String())
	}
	return out.String()
}

// TestStdioFirstReadWaitsForDetection: stdio's first read of an older
// Dagu, sent while the release detection is still under way, is answered
// in that release's dialect (it was "not found": the current release's
// route, which Dagu 1.29 does not have).
func TestStdioFirstReadWaitsForDetection(t *testing.T) {
	t.Parallel()
	fake, url := fakedagutest.Start(t, fakedagu.Options{APIKey: fakedagutest.APIKey, Profile: fakedagu.Profile129})
	fake.Inject(fakedagu.Fault{Route: "*", Times: 1, Latency: 300 * time.Millisecond}) // detection's first request
	key := filepath.Join(t.TempDir(), "key")
	if err := os.WriteFile(key, []byte(fakedagutest.APIKey), 0o600); err != nil {
		t.Fatal(err)
	}
	in, feed := io.Pipe()
	out := &testkit.LogBuffer{}
	var stderr bytes.Buffer
	done := make(chan int, 1)
	go func() {
		done <- run(context.Background(), []string{"stdio", "--dagu-url", url, "--dagu-api-key-file", key}, environment{
			stdin: in, stdout: out, stderr: &stderr, getenv: func(string) string { return "" },
		})
	}()
	for _, line := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"dagu_read","arguments":{"target":"run","name":"failing_job","dagRunId":"latest"}}}`,
	} {
		if _, err := io.WriteString(feed, line+"\n"); err != nil {
			t.Fatalf("stdio exited early: %v\n%s", err, stderr.String())
		}
	}
	for range 1000 {
		if strings.Contains(out.String(), `"id":2,`) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	_ = feed.Close()
	if code := <-done; code != 0 {
		t.Fatalf("stdio: exit %d\n%s", code, stderr.String())
	}
	if !strings.Contains(out.String(), `"dagRunId":"`) {
		t.Fatalf("the first read found no run:\n%s", out.String())
	}
}
