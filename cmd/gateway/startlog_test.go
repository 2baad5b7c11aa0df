// SPDX-License-Identifier: Apache-2.0

package main

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/config"
	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu/fakedagutest"
	"github.com/dagu-mcp-gateway/gateway/internal/testkit"
)

// serveLogged runs serve in process with cfg (listening where cfg says:
// serveHTTP binds it) until the test ends, its log in JSON lines, and
// returns the log once it has as many lines as wanted says of each msg
// prefix.
func serveLogged(t *testing.T, cfg config.Config, wanted map[string]int) []map[string]any {
	t.Helper()
	if err := cfg.Validate(config.ModeServe, readTargets()); err != nil {
		t.Fatal(err)
	}
	var buf testkit.LogBuffer
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- serveHTTP(ctx, cfg, slog.New(slog.NewJSONHandler(&buf, nil)), mapEnv(nil), nil) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve returned %v", err)
		}
	})
	waitFor(t, func() bool {
		lines := buf.JSONLines(t)
		for prefix, n := range wanted {
			if count(lines, prefix) < n {
				return false
			}
		}
		return true
	})
	return buf.JSONLines(t)
}

// count is the number of log lines whose msg starts with prefix.
func count(lines []map[string]any, prefix string) int {
	n := 0
	for _, l := range lines {
		if msg, _ := l["msg"].(string); strings.HasPrefix(msg, prefix) {
			n++
		}
	}
	return n
}

// lineOf is the first log line whose msg starts with prefix.
func lineOf(lines []map[string]any, prefix string) map[string]any {
	i := indexOf(lines, prefix)
	if i < 0 {
		return nil
	}
	return lines[i]
}

func indexOf(lines []map[string]any, prefix string) int {
	return slices.IndexFunc(lines, func(l map[string]any) bool { msg, _ := l["msg"].(string); return strings.HasPrefix(msg, prefix) })
}

// freeAddr is a loopback address nothing listens on (the kernel just
// handed it out and took it back).
func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	_ = l.Close()
	return addr
}

// TestServeSaysWhatItReached (issue 36): once its listener is bound, serve
// logs where it serves (the /mcp URL) and then what its Dagu's first
// detection reached: the release and REST API with a good key; with a key
// Dagu refuses, an ERROR with doctor's sentence and the doctor command
// (it was one WARN, "detecting the Dagu server's capabilities failed").
func TestServeSaysWhatItReached(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, key, reached, level string
		attrs                     map[string]string
	}{
		{"good key", fakedagutest.APIKey, "Dagu reached", "INFO",
			map[string]string{"release": "0.0.0", "rest_api": "/api/v1", "api_key": "accepted"}},
		{"refused key", "dagu_not_the_key_0123", "Dagu refused the gateway's API key", "ERROR",
			map[string]string{"problem": "Dagu rejected the API key given by --dagu-api-key / DAGU_API_KEY (HTTP 401). It is wrong, expired or revoked",
				"next": "run `dagu-mcp-gateway doctor` with the same settings"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, daguURL := fakedagutest.Start(t, fakedagu.Options{APIKey: fakedagutest.APIKey})
			listen := freeAddr(t)
			cfg, err := resolveFrom(t, []string{"--dagu-url", daguURL, "--dagu-api-key", tc.key, "--listen", listen}, nil)
			if err != nil {
				t.Fatal(err)
			}
			lines := serveLogged(t, cfg, map[string]int{"gateway serving": 1, tc.reached: 1})
			serving, reached := lineOf(lines, "gateway serving"), lineOf(lines, tc.reached)
			if serving["mcp"] != "http://"+listen+"/mcp" || serving["listen"] != listen || serving["dagu"] != daguURL {
				t.Errorf("serving line %v, want mcp http://%s/mcp and dagu %s", serving, listen, daguURL)
			}
			if indexOf(lines, "gateway serving") > indexOf(lines, tc.reached) {
				t.Error("what Dagu reached is logged before where the gateway serves")
			}
			if reached["level"] != tc.level || reached["dagu"] != daguURL {
				t.Errorf("reached line %v, want level %s for %s", reached, tc.level, daguURL)
			}
			for attr, want := range tc.attrs {
				if got, _ := reached[attr].(string); !strings.Contains(got, want) {
					t.Errorf("%s = %q, want it to contain %q", attr, got, want)
				}
			}
			if lineOf(lines, "detecting the Dagu server's capabilities failed") != nil {
				t.Error("the first detection's failure is also logged as the old warning")
			}
		})
	}
}

// TestServeNamesEachInstanceURL: with --instances, the serving line names
// every /mcp URL (/mcp first when an instance is named default), and each
// instance's line names its Dagu, its release and its URL.
func TestServeNamesEachInstanceURL(t *testing.T) {
	t.Parallel()
	_, prodURL := startRecordingDagu(t, fakedagu.Options{APIKey: prodKey})
	_, stagingURL := startRecordingDagu(t, fakedagu.Options{APIKey: stagingKey, Profile: fakedagu.Profile129})
	dir := t.TempDir()
	file := "instances:\n"
	for _, in := range []struct{ name, url, key string }{{"default", prodURL, prodKey}, {"staging", stagingURL, stagingKey}} {
		keyFile := filepath.Join(dir, in.name+".key")
		if err := os.WriteFile(keyFile, []byte(in.key+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		file += fmt.Sprintf("  - name: %s\n    url: %s\n    apiKeyFile: %s\n", in.name, in.url, keyFile)
	}
	path := filepath.Join(dir, "instances.yaml")
	if err := os.WriteFile(path, []byte(file), 0o600); err != nil {
		t.Fatal(err)
	}
	listen := freeAddr(t)
	cfg, err := resolveFrom(t, []string{"--instances", path, "--listen", listen}, nil)
	if err != nil {
		t.Fatal(err)
	}
	lines := serveLogged(t, cfg, map[string]int{"gateway serving": 1, "Dagu reached": 2})
	base := "http://" + listen
	want := fmt.Sprint([]any{base + "/mcp", base + "/dagu/default/mcp", base + "/dagu/staging/mcp"})
	if got := fmt.Sprint(lineOf(lines, "gateway serving")["mcp"]); got != want {
		t.Errorf("serving line's mcp %s, want %s", got, want)
	}
	for _, l := range lines {
		if l["msg"] != "Dagu reached" {
			continue
		}
		name, _ := l["instance"].(string)
		if l["mcp"] != base+"/dagu/"+name+"/mcp" || (name == "staging" && (l["dagu"] != stagingURL || !strings.HasSuffix(l["rest_api"].(string), "/api/v2"))) {
			t.Errorf("instance line %v", l)
		}
	}
}

// TestServeRefusesABusyAddressBeforeServing: an address in use fails at
// once with what to do, and nothing says the gateway serves (it used to
// log "gateway serving" first).
func TestServeRefusesABusyAddressBeforeServing(t *testing.T) {
	t.Parallel()
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	_, daguURL := fakedagutest.Start(t, fakedagu.Options{APIKey: fakedagutest.APIKey})
	for _, args := range [][]string{
		{"serve", "--dagu-url", daguURL, "--dagu-api-key", fakedagutest.APIKey, "--listen", busy.Addr().String()},
		{"demo", "--dagu-port", "0", "--listen", busy.Addr().String()}, // chosen, so not given way
	} {
		code, _, errOut := runCommand(t, nil, args...)
		if code != 2 || !strings.Contains(errOut, "--listen "+busy.Addr().String()+": address already in use") ||
			!strings.Contains(errOut, "--listen or GATEWAY_LISTEN") || strings.Contains(errOut, "gateway serving") {
			t.Errorf("%s: exit %d, stderr:\n%s", args[0], code, errOut)
		}
	}
}
