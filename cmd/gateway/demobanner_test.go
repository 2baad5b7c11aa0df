// SPDX-License-Identifier: Apache-2.0

package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/testkit"
)

// TestDemoBanner (issue 30): the banner gives a URL a client on this
// machine reaches (never a wildcard address), the Authorization header in
// every client snippet when tokens are required, the demo Dagu's key when
// the demo made it up (never one the operator gave), and ready doctor and
// stdio lines.
func TestDemoBanner(t *testing.T) {
	t.Parallel()
	const dagu = "http://127.0.0.1:4242"
	for _, tc := range []struct {
		name    string
		banner  demoBanner
		want    []string
		notWant []string
		headers int
	}{
		{name: "loopback", banner: demoBanner{listen: "127.0.0.1:8090", daguURL: dagu, key: "dagu_demo_k1", command: "bin/dagu-mcp-gateway"},
			want: []string{"MCP endpoint (Streamable HTTP): http://127.0.0.1:8090/mcp\n", "Demo Dagu API key:              dagu_demo_k1\n",
				"  DAGU_URL=" + dagu + " DAGU_API_KEY=dagu_demo_k1 bin/dagu-mcp-gateway doctor\n",
				"  DAGU_URL=" + dagu + " DAGU_API_KEY=dagu_demo_k1 bin/dagu-mcp-gateway stdio\n",
				"http://127.0.0.1:8090/mcp?text-content=json&resource-links=omit\n"},
			notWant: []string{"every interface"}},
		{name: "IPv4 wildcard with tokens", banner: demoBanner{listen: "0.0.0.0:8090", daguURL: dagu, key: "k", tokens: true, command: "x"},
			want:    []string{"http://127.0.0.1:8090/mcp", "every interface", `"headers": {"Authorization": "Bearer <your token>"}`},
			notWant: []string{"0.0.0.0", "[::]"}, headers: 3},
		{name: "IPv6 wildcard", banner: demoBanner{listen: "[::]:8090", daguURL: dagu, key: "k", command: "x"},
			want: []string{"http://127.0.0.1:8090/mcp", "every interface"}, notWant: []string{"[::]", "Authorization"}},
		{name: "a given key", banner: demoBanner{listen: "127.0.0.1:8090", daguURL: dagu, command: "dagu-mcp-gateway"},
			want: []string{"the one you gave (DAGU_API_KEY or --dagu-api-key; not shown)",
				"DAGU_API_KEY='<the key you gave>' dagu-mcp-gateway doctor"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var out strings.Builder
			tc.banner.print(&out)
			text := out.String()
			for _, w := range tc.want {
				if !strings.Contains(text, w) {
					t.Errorf("banner lacks %q:\n%s", w, text)
				}
			}
			for _, w := range tc.notWant {
				if strings.Contains(text, w) {
					t.Errorf("banner has %q:\n%s", w, text)
				}
			}
			if n := strings.Count(text, "Bearer <your token>"); n != tc.headers {
				t.Errorf("%d snippets carry the header, want %d:\n%s", n, tc.headers, text)
			}
		})
	}
}

func TestSelfCommand(t *testing.T) {
	t.Parallel()
	goRun := filepath.Join(os.TempDir(), "go-build123", "b001", "exe", "gateway") // what go run executes
	for arg0, want := range map[string]string{
		"dagu-mcp-gateway":                   "dagu-mcp-gateway",
		"bin/dagu-mcp-gateway":               "bin/dagu-mcp-gateway",
		goRun:                                "go run ./cmd/gateway",
		"/home/me/my tools/dagu-mcp-gateway": `'/home/me/my tools/dagu-mcp-gateway'`,
		"/opt/it's/dagu-mcp-gateway":         `'/opt/it'\''s/dagu-mcp-gateway'`,
	} {
		if got := selfCommand(arg0); got != want {
			t.Errorf("selfCommand(%q) = %q, want %q", arg0, got, want)
		}
	}
}

var bannerDoctorLine = regexp.MustCompile(`DAGU_URL=(\S+) DAGU_API_KEY=(\S+) .* doctor\n`)

// TestDemoBannerDoctorLineWorks runs `demo` without a key, then doctor
// with the URL and key of the banner's doctor line: the demo Dagu accepts
// it.
func TestDemoBannerDoctorLineWorks(t *testing.T) {
	t.Parallel()
	var stdout testkit.LogBuffer
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"demo", "--listen", "127.0.0.1:0", "--log-level", "error"}, environment{
			stdin: strings.NewReader(""), stdout: &stdout, stderr: io.Discard, getenv: func(string) string { return "" },
		})
	}()
	waitForBanner(t, &stdout, done)
	m := bannerDoctorLine.FindStringSubmatch(stdout.String())
	if m == nil {
		t.Fatalf("no doctor line in:\n%s", stdout.String())
	}
	code, out, _ := runCommand(t, map[string]string{"DAGU_URL": m[1], "DAGU_API_KEY": m[2]}, "doctor")
	if code != 0 || !strings.Contains(out, "the API key is accepted") {
		t.Errorf("the banner's doctor line: exit %d\n%s", code, out)
	}
	cancel()
	if code := <-done; code != 0 {
		t.Fatalf("demo exited %d", code)
	}
}
