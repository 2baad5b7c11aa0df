// SPDX-License-Identifier: Apache-2.0

package instances

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/config"
)

func TestParseAcceptsTheDocumentedForm(t *testing.T) {
	t.Parallel()
	set, err := Parse([]byte(`# two Dagu servers
instances:
  - name: prod
    url: https://dagu.prod.example
    apiKeyFile: /run/secrets/dagu-prod
  - name: staging
    url: http://dagu.staging.example:8080/dagu
    upstreamAuth: passthrough
    caFile: /etc/ca.pem
    upstreamTimeout: 30s
    upstreamCompression: gzip
  - name: old-1
    url: https://old.example
    insecureSkipVerify: true
`))
	if err != nil {
		t.Fatal(err)
	}
	want := []Instance{
		{Name: "prod", URL: "https://dagu.prod.example", APIKeyFile: "/run/secrets/dagu-prod"},
		{Name: "staging", URL: "http://dagu.staging.example:8080/dagu", UpstreamAuth: AuthPassthrough, CAFile: "/etc/ca.pem",
			UpstreamTimeout: 30 * time.Second, UpstreamCompression: "gzip"},
		{Name: "old-1", URL: "https://old.example", InsecureSkipVerify: true},
	}
	if len(set.Instances) != len(want) {
		t.Fatalf("got %d instances, want %d", len(set.Instances), len(want))
	}
	for i := range want {
		if set.Instances[i] != want[i] {
			t.Errorf("instance %d = %+v, want %+v", i, set.Instances[i], want[i])
		}
	}
	if got := strings.Join(set.Names(), ","); got != "prod,staging,old-1" {
		t.Errorf("names %s", got)
	}
	if in, ok := set.Lookup("staging"); !ok || !in.Passthrough(AuthService) {
		t.Errorf("staging %+v is not passthrough", in)
	}
	if in, _ := set.Lookup("prod"); in.Passthrough(AuthService) || !in.Passthrough(AuthPassthrough) {
		t.Errorf("prod's mode should follow --upstream-auth")
	}
}

func TestParseRefusals(t *testing.T) {
	t.Parallel()
	const ok = "instances:\n  - name: a\n    url: http://h\n"
	tests := []struct{ name, file, want string }{
		{"empty", "", "empty"},
		{"not yaml", "instances: [", "not YAML"},
		{"not a mapping", "- a\n", "line 1: the file must be a mapping"},
		{"unknown top-level", ok + "other: 1\n", `line 4: unknown top-level field "other"`},
		{"instances twice", ok + "instances: []\n", "line 4: instances appears twice"},
		{"no list", "instances: x\n", "must be a list"},
		{"empty list", "instances: []\n", "instances is empty"},
		{"unknown field", "instances:\n  - name: a\n    url: http://h\n    apiKey: secret-value\n", `line 4: unknown field "apiKey" in instance 1`},
		{"field twice", "instances:\n  - name: a\n    name: b\n", "line 3: field name appears twice"},
		{"instance not a mapping", "instances:\n  - a\n", "line 2: instance 1 must be a mapping"},
		{"no name", "instances:\n  - url: http://h\n", "no name"},
		{"bad name", "instances:\n  - name: Prod\n    url: http://h\n", `name "Prod" must be 1 to 32`},
		{"long name", "instances:\n  - name: " + strings.Repeat("a", 33) + "\n    url: http://h\n", "must be 1 to 32"},
		{"slash in name", "instances:\n  - name: a/b\n    url: http://h\n", "must be 1 to 32"},
		{"dot name", "instances:\n  - name: ..\n    url: http://h\n", "must be 1 to 32"},
		{"duplicate", ok + "  - name: a\n    url: http://g\n", `line 4: instance name "a" is already used by the instance at line 2`},
		{"no url", "instances:\n  - name: a\n", "a has no url"},
		{"url scheme", "instances:\n  - name: a\n    url: h:80\n", "a: url \"h:80\" must start with http"},
		{"url credentials", "instances:\n  - name: a\n    url: http://u:p@h\n", "use apiKeyFile"},
		{"url rest path", "instances:\n  - name: a\n    url: http://h/api/v1\n", "ends with /api/v1"},
		{"auth value", "instances:\n  - name: a\n    url: http://h\n    upstreamAuth: oauth\n", "must be service or passthrough"},
		{"key and passthrough", "instances:\n  - name: a\n    url: http://h\n    upstreamAuth: passthrough\n    apiKeyFile: /k\n", "exclude each other"},
		{"ca and skip", "instances:\n  - name: a\n    url: http://h\n    caFile: /c\n    insecureSkipVerify: true\n", "both set"},
		{"bool", "instances:\n  - name: a\n    url: http://h\n    insecureSkipVerify: maybe\n", "line 4: instance 1, insecureSkipVerify: must be true or false"},
		{"duration", "instances:\n  - name: a\n    url: http://h\n    upstreamTimeout: soon\n", "positive duration"},
		{"negative duration", "instances:\n  - name: a\n    url: http://h\n    upstreamTimeout: -1s\n", "positive duration"},
		{"compression", "instances:\n  - name: a\n    url: http://h\n    upstreamCompression: br\n", "auto, gzip or identity"},
		{"null value", "instances:\n  - name: a\n    url:\n", "url: must be a string"},
		{"list value", "instances:\n  - name: [a]\n", "name: must be a string"},
		{"alias", "instances:\n  - &x\n    name: a\n    url: http://h\n  - *x\n", "anchors and aliases"},
		{"two documents", ok + "---\n" + ok, "second YAML document"},
		{"too many", "instances:\n" + strings.Repeat("  - {name: a, url: http://h}\n", MaxInstances+1), "more than the 64"},
		{"too large", "#" + strings.Repeat("x", MaxFileBytes), "more than the"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := Parse([]byte(tt.file))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want it to contain %q", err, tt.want)
			}
			if strings.Contains(err.Error(), "secret-value") {
				t.Errorf("the error repeats a value: %v", err)
			}
		})
	}
}

// FuzzParse: any input is parsed or refused without panicking, and what is
// accepted obeys the rules.
func FuzzParse(f *testing.F) {
	f.Add([]byte("instances:\n  - name: a\n    url: http://h\n"))
	f.Add([]byte("instances:\n  - {name: b, url: 'https://h/x', upstreamAuth: passthrough, upstreamTimeout: 1s}\n"))
	f.Add([]byte("instances:\n  - &x {name: a}\n  - *x\n"))
	f.Add([]byte("instances: [{name: a, url: http://h, insecureSkipVerify: true}, {name: a, url: http://h}]"))
	f.Fuzz(func(t *testing.T, data []byte) {
		set, err := Parse(data)
		if err != nil {
			return
		}
		if len(set.Instances) == 0 || len(set.Instances) > MaxInstances {
			t.Fatalf("%d instances accepted", len(set.Instances))
		}
		seen := map[string]bool{}
		for _, in := range set.Instances {
			if !ValidName(in.Name) || seen[in.Name] || in.URL == "" {
				t.Fatalf("accepted %+v", in)
			}
			seen[in.Name] = true
		}
	})
}

func TestCheckAuth(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		in     Instance
		global string
		want   string
	}{
		{"inherits service", Instance{Name: "a", APIKeyFile: "/k"}, AuthService, ""},
		{"inherits passthrough", Instance{Name: "a"}, AuthPassthrough, ""},
		{"says the same", Instance{Name: "a", UpstreamAuth: AuthPassthrough}, AuthPassthrough, ""},
		{"mixed", Instance{Name: "a", UpstreamAuth: AuthPassthrough}, AuthService, "differs from --upstream-auth service"},
		{"key in passthrough", Instance{Name: "a", APIKeyFile: "/k"}, AuthPassthrough, "apiKeyFile is set"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := CheckAuth(Set{Instances: []Instance{tt.in}}, tt.global)
			if (tt.want == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want %q", err, tt.want)
			}
		})
	}
}

func TestConfigOfAndKeyFile(t *testing.T) {
	t.Parallel()
	global := config.Config{DaguURL: "http://single", DaguAPIKey: "k", UpstreamTimeout: time.Second, UpstreamCompression: "auto", CacheTTL: time.Minute}
	cfg := ConfigOf(global, Instance{Name: "a", URL: "http://a", APIKeyFile: "/k", CAFile: "/ca", UpstreamTimeout: 5 * time.Second})
	if cfg.DaguURL != "http://a" || cfg.DaguAPIKey != "" || cfg.DaguAPIKeyFile != "/k" || cfg.DaguCAFile != "/ca" ||
		cfg.UpstreamTimeout != 5*time.Second || cfg.UpstreamCompression != "auto" || cfg.CacheTTL != time.Minute {
		t.Fatalf("config of an instance: %+v", cfg)
	}
	dir := t.TempDir()
	good, empty := filepath.Join(dir, "good"), filepath.Join(dir, "empty")
	if err := os.WriteFile(good, []byte("dagu_key_0123\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(empty, []byte("\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{"": "", good: "", empty: "no usable key", filepath.Join(dir, "none"): "no such file"} {
		err := Instance{APIKeyFile: path}.CheckKeyFile()
		if (want == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", path, err, want)
		}
	}
}

// TestCheckKeyFileReadsOnlyASmallRegularFile: an apiKeyFile that is a FIFO
// kept the reload waiting for a writer (every later version and SIGHUP
// with it), and one that is /dev/zero or a huge file was read whole into
// memory (the process died of it): the key file is judged on the opened
// descriptor, as the instances file is, and read within a bound.
func TestCheckKeyFileReadsOnlyASmallRegularFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fifo, big := filepath.Join(dir, "fifo"), filepath.Join(dir, "big")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(big, []byte("k"+strings.Repeat(" ", MaxKeyFileBytes)), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tt := range [][2]string{{fifo, "not a regular file"}, {dir, "not a regular file"}, {big, "more than"}, {"/dev/zero", "not a regular file"}} {
		path, want := tt[0], tt[1]
		done := make(chan error, 1)
		go func() { done <- Instance{APIKeyFile: path}.CheckKeyFile() }()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%s: %v, want %q", path, err, want)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: the check of the key file is still waiting after 5s", path)
		}
	}
}
