// SPDX-License-Identifier: Apache-2.0

package demo

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
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
		banner  Banner
		want    []string
		notWant []string
		headers int
	}{
		{name: "loopback", banner: Banner{Listen: "127.0.0.1:8090", DaguURL: dagu, Key: "dagu_demo_k1", Command: "bin/dagu-mcp-gateway"},
			want: []string{"MCP endpoint (Streamable HTTP): http://127.0.0.1:8090/mcp\n", "Demo Dagu API key:              dagu_demo_k1\n",
				"  DAGU_URL=" + dagu + " DAGU_API_KEY=dagu_demo_k1 bin/dagu-mcp-gateway doctor\n",
				"  DAGU_URL=" + dagu + " DAGU_API_KEY=dagu_demo_k1 bin/dagu-mcp-gateway stdio\n",
				"http://127.0.0.1:8090/mcp?text-content=json&resource-links=omit\n"},
			notWant: []string{"every interface"}},
		{name: "IPv4 wildcard with tokens", banner: Banner{Listen: "0.0.0.0:8090", DaguURL: dagu, Key: "k", Tokens: true, Command: "x"},
			want:    []string{"http://127.0.0.1:8090/mcp", "every interface", `"headers": {"Authorization": "Bearer <your token>"}`},
			notWant: []string{"0.0.0.0", "[::]"}, headers: 3},
		{name: "IPv6 wildcard", banner: Banner{Listen: "[::]:8090", DaguURL: dagu, Key: "k", Command: "x"},
			want: []string{"http://127.0.0.1:8090/mcp", "every interface"}, notWant: []string{"[::]", "Authorization"}},
		{name: "a given key", banner: Banner{Listen: "127.0.0.1:8090", DaguURL: dagu, Command: "dagu-mcp-gateway"},
			want: []string{"the one you gave (DAGU_API_KEY or --dagu-api-key; not shown)",
				"DAGU_API_KEY='<the key you gave>' dagu-mcp-gateway doctor"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var out strings.Builder
			tc.banner.Print(&out)
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
		if got := SelfCommand(arg0); got != want {
			t.Errorf("SelfCommand(%q) = %q, want %q", arg0, got, want)
		}
	}
}
