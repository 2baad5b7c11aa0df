// SPDX-License-Identifier: Apache-2.0

package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/testkit"
)

const goodToken = "0123456789abcdef0123456789abcdef"

// testTargets stand for the dagu_read targets the command passes to
// Validate.
var testTargets = []string{"dags", "dag", "runs", "workbook", "wiki"}

// baseConfig is a valid serve configuration: defaults plus a Dagu URL.
func baseConfig(t *testing.T) Config {
	t.Helper()
	c, err := resolveFrom(t, []string{"--dagu-url", "https://dagu.example.com"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// writeTestFile writes content to a new file in a test directory.
func writeTestFile(t *testing.T, name, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestValidate(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := writeTestFile(t, "plain.txt", "x")
	keyFile := writeTestFile(t, "key", "dagu_secret\n")
	emptyKeyFile := writeTestFile(t, "empty-key", "\n")
	caFile := writeTestFile(t, "ca.pem", string(testkit.CAPEM(t)))
	tokenFile := writeTestFile(t, "tokens", "# inbound\n"+goodToken+"\n")
	emptyTokenFile := writeTestFile(t, "no-tokens", "# nothing yet\n\n")

	tests := []struct {
		name   string
		mode   Mode
		change func(*Config)
		want   string // substring of the error; empty means valid
	}{
		{"defaults with url", ModeServe, func(*Config) {}, ""},
		{"demo needs no url", ModeDemo, func(c *Config) { c.DaguURL = "" }, ""},
		{"demo ignores a bad url", ModeDemo, func(c *Config) { c.DaguURL = "ftp://x" }, ""},
		{"serve needs url", ModeServe, func(c *Config) { c.DaguURL = "" }, "--dagu-url is required for serve"},
		{"stdio needs url", ModeStdio, func(c *Config) { c.DaguURL = "" }, "DAGU_URL"},
		{"doctor needs url", ModeDoctor, func(c *Config) { c.DaguURL = "" }, "required for doctor"},
		{"url scheme", ModeServe, func(c *Config) { c.DaguURL = "dagu.example.com:8080" }, "http:// or https://"},
		{"url ip and port without scheme", ModeServe, func(c *Config) { c.DaguURL = "127.0.0.1:8080" }, `"127.0.0.1:8080" must start with http:// or https://`},
		{"url without host", ModeServe, func(c *Config) { c.DaguURL = "http://" }, "no host"},
		{"url with query", ModeServe, func(c *Config) { c.DaguURL = "http://h/?x=1" }, "query or fragment"},
		{"url with fragment", ModeServe, func(c *Config) { c.DaguURL = "http://h/#top" }, "query or fragment"},
		{"url with credentials", ModeServe, func(c *Config) { c.DaguURL = "http://u:p@h" }, "credentials"},
		{"url with rest path", ModeServe, func(c *Config) { c.DaguURL = "http://h/dagu/api/v1" }, "without it"},
		{"url with base path", ModeServe, func(c *Config) { c.DaguURL = "http://h:8080/dagu" }, ""},
		{"key and key file", ModeServe, func(c *Config) { c.DaguAPIKey, c.DaguAPIKeyFile = "dagu_x", keyFile }, "keep only one"},
		{"key file ok", ModeServe, func(c *Config) { c.DaguAPIKeyFile = keyFile }, ""},
		{"key file missing", ModeServe, func(c *Config) { c.DaguAPIKeyFile = filepath.Join(dir, "nope") }, "--dagu-api-key-file"},
		{"key file empty", ModeServe, func(c *Config) { c.DaguAPIKeyFile = emptyKeyFile }, "empty"},
		{"key with newline", ModeServe, func(c *Config) { c.DaguAPIKey = "dagu_a\nb" }, "control characters"},
		{"ca file ok", ModeServe, func(c *Config) { c.DaguCAFile = caFile }, ""},
		{"ca file not pem", ModeServe, func(c *Config) { c.DaguCAFile = file }, "no PEM certificate"},
		{"ca and skip verify", ModeServe, func(c *Config) { c.DaguCAFile, c.DaguInsecureSkipVerify = caFile, true }, "both set"},
		{"public listen without token", ModeServe, func(c *Config) { c.Listen = "0.0.0.0:8090" },
			"give callers tokens with --auth-token-file or GATEWAY_AUTH_TOKEN_FILE (or --auth-token, GATEWAY_AUTH_TOKENS), have each caller send its own Dagu key (--upstream-auth passthrough), have people sign in with an OpenID provider (--oidc-issuer with --access-policy), or listen on a loopback address such as --listen 127.0.0.1:8090"},
		{"public listen in passthrough", ModeServe, func(c *Config) { c.Listen, c.UpstreamAuth = "0.0.0.0:8090", UpstreamAuthPassthrough }, ""},
		{"all interfaces without token", ModeDemo, func(c *Config) { c.Listen = ":8090" }, "without authentication"},
		{"public listen with token", ModeServe, func(c *Config) { c.Listen, c.AuthTokens = "0.0.0.0:8090", []string{goodToken} }, ""},
		{"public listen with token file", ModeServe, func(c *Config) { c.Listen, c.AuthTokenFile = "0.0.0.0:8090", tokenFile }, ""},
		{"public listen with empty token file", ModeServe, func(c *Config) { c.Listen, c.AuthTokenFile = "0.0.0.0:8090", emptyTokenFile }, "without authentication"},
		{"missing token file", ModeServe, func(c *Config) { c.AuthTokenFile = filepath.Join(dir, "nope") }, "--auth-token-file"},
		{"localhost listen without token", ModeServe, func(c *Config) { c.Listen = "localhost:8090" }, ""},
		{"ipv6 loopback without token", ModeServe, func(c *Config) { c.Listen = "[::1]:8090" }, ""},
		{"stdio ignores public listen", ModeStdio, func(c *Config) { c.Listen = "0.0.0.0:8090" }, ""},
		{"short token", ModeServe, func(c *Config) { c.AuthTokens = []string{"REPLACE_ME"} }, "openssl rand"},
		{"token with space", ModeServe, func(c *Config) { c.AuthTokens = []string{"0123456789 abcdef0123"} }, "printable ASCII"},
		{"listen without port", ModeServe, func(c *Config) { c.Listen = "127.0.0.1" }, "not host:port"},
		{"listen bad port", ModeServe, func(c *Config) { c.Listen = "127.0.0.1:http" }, "invalid port"},
		{"listen signed port", ModeServe, func(c *Config) { c.Listen = "127.0.0.1:+80" }, "invalid port"},
		{"allowed host ok", ModeServe, func(c *Config) { c.AllowedHosts = []string{"gw.example.com", "gw.example.com:8443", "[::1]", "::1"} }, ""},
		{"allowed host with scheme", ModeServe, func(c *Config) { c.AllowedHosts = []string{"https://gw.example.com"} }, "without scheme or path"},
		{"trusted proxies ok", ModeServe, func(c *Config) {
			c.TrustedProxies, c.ClientIPHeader = []string{"10.0.0.0/8", "fd00::/8", "192.0.2.7", "::1"}, "X-Forwarded-For"
		}, ""},
		{"trusted proxies with Forwarded", ModeServe, func(c *Config) { c.TrustedProxies, c.ClientIPHeader = []string{"10.0.0.0/8"}, "forwarded" }, ""},
		{"trusted proxies without a header", ModeServe, func(c *Config) { c.TrustedProxies = []string{"10.0.0.0/8"} }, "--client-ip-header X-Forwarded-For or --client-ip-header Forwarded"},
		{"a header without trusted proxies", ModeServe, func(c *Config) { c.ClientIPHeader = "X-Forwarded-For" }, "--trusted-proxies is not"},
		{"an unknown header", ModeServe, func(c *Config) { c.TrustedProxies, c.ClientIPHeader = []string{"10.0.0.0/8"}, "X-Real-IP" }, `--client-ip-header "X-Real-IP"`},
		{"trusted proxy not a network", ModeServe, func(c *Config) { c.TrustedProxies = []string{"ingress.local"} }, "--trusted-proxies"},
		{"trusted proxies in one flag value", ModeServe, func(c *Config) { c.TrustedProxies = []string{"10.0.0.0/8,fd00::/8"} }, "repeat the flag for several"},
		{"allowed hosts in one flag value", ModeServe, func(c *Config) { c.AllowedHosts = []string{"a.example.com,b.example.com"} }, "repeat the flag for several"},
		{"trusted proxy bad prefix", ModeServe, func(c *Config) { c.TrustedProxies = []string{"10.0.0.0/33"} }, "CIDR"},
		{"trusted proxy with zone", ModeServe, func(c *Config) { c.TrustedProxies = []string{"fe80::1%eth0"} }, "--trusted-proxies"},
		{"public url ok", ModeServe, func(c *Config) { c.PublicURL = "https://gw.example.com/dagu/" }, ""},
		{"public url with port", ModeServe, func(c *Config) { c.PublicURL = "http://[::1]:8090" }, ""},
		{"public url relative", ModeServe, func(c *Config) { c.PublicURL = "gw.example.com" }, "--public-url"},
		{"public url ip and port without scheme", ModeServe, func(c *Config) { c.PublicURL = "127.0.0.1:8090" }, "scheme must be http or https"},
		{"public url unparsable", ModeServe, func(c *Config) { c.PublicURL = "http://gw.example.com/%zz" }, "not a URL:"},
		{"public url other scheme", ModeServe, func(c *Config) { c.PublicURL = "ftp://gw.example.com" }, "scheme must be http or https"},
		{"public url userinfo", ModeServe, func(c *Config) { c.PublicURL = "https://u:p@gw.example.com" }, "user information"},
		{"public url query", ModeServe, func(c *Config) { c.PublicURL = "https://gw.example.com/?a=b" }, "query"},
		{"public url empty query", ModeServe, func(c *Config) { c.PublicURL = "https://gw.example.com/?" }, "query"},
		{"public url fragment", ModeServe, func(c *Config) { c.PublicURL = "https://gw.example.com/#x" }, "fragment"},
		{"public url quote", ModeServe, func(c *Config) { c.PublicURL = `https://gw.example.com/"x` }, "printable ASCII"},
		{"public url no host", ModeServe, func(c *Config) { c.PublicURL = "https:///mcp" }, "no host"},
		{"zero upstream timeout", ModeServe, func(c *Config) { c.UpstreamTimeout = 0 }, "--upstream-timeout must be above zero"},
		{"zero shutdown timeout", ModeStdio, func(c *Config) { c.ShutdownTimeout = 0 }, "GATEWAY_SHUTDOWN_TIMEOUT"},
		{"negative cache ttl", ModeServe, func(c *Config) { c.CacheTTL = -time.Second }, "use 0 to disable"},
		{"zero cache ttl", ModeServe, func(c *Config) { c.CacheTTL = 0 }, ""},
		{"zero response bytes", ModeServe, func(c *Config) { c.MaxResponseBytes = 0 }, "--max-response-bytes"},
		{"body budget below the response cap", ModeServe, func(c *Config) { c.UpstreamBodyBudget = 1 << 20 }, "--upstream-body-budget"},
		{"zero workbook rows", ModeServe, func(c *Config) { c.WorkbookMaxRows = 0 }, "--workbook-max-rows"},
		{"zero workbook sheets", ModeServe, func(c *Config) { c.WorkbookMaxSheets = 0 }, "--workbook-max-sheets"},
		{"zero workbook bytes", ModeServe, func(c *Config) { c.WorkbookMaxBytes = 0 }, "--workbook-max-bytes"},
		{"workbook memory without unit", ModeServe, func(c *Config) { c.WorkbookMaxMemory = 64 }, "--workbook-max-memory must be at least 1MiB"},
		{"workbook memory of 1MiB", ModeServe, func(c *Config) { c.WorkbookMaxMemory = 1 << 20 }, ""},
		{"memory limit below the smallest", ModeServe, func(c *Config) { c.MemoryLimit = "16MiB" }, "--memory-limit: 16MiB is below 32MiB (use off for none); GATEWAY_MEMORY_LIMIT sets it too"},
		{"memory limit in decimal units", ModeServe, func(c *Config) { c.MemoryLimit = "300MB" }, "--memory-limit: unknown size unit"},
		{"memory limit off", ModeServe, func(c *Config) { c.MemoryLimit = "off" }, ""},
		{"zero workbook concurrency", ModeServe, func(c *Config) { c.WorkbookConcurrency = 0 }, "GATEWAY_WORKBOOK_CONCURRENCY"},
		{"reference dir ok", ModeServe, func(c *Config) { c.ReferenceDir = dir }, ""},
		{"reference dir is a file", ModeServe, func(c *Config) { c.ReferenceDir = file }, "not a directory"},
		{"workbook root missing", ModeServe, func(c *Config) { c.WorkbookRoots = []string{dir, filepath.Join(dir, "nope")} }, "--workbook-root"},
		{"bad log level", ModeServe, func(c *Config) { c.LogLevel = "verbose" }, "debug, info, warn or error"},
		{"bad log format", ModeServe, func(c *Config) { c.LogFormat = "xml" }, "json or text"},
		{"unknown mode", Mode("serv"), func(*Config) {}, "unknown mode"},
		{"instances file replaces the url", ModeServe, func(c *Config) { c.DaguURL, c.InstancesFile = "", file }, ""},
		{"instances file missing", ModeServe, func(c *Config) { c.DaguURL, c.InstancesFile = "", filepath.Join(dir, "nope") }, "--instances: stat"},
		{"instances file and url", ModeServe, func(c *Config) { c.InstancesFile = file }, "--instances and --dagu-url are both set"},
		{"instances file and key file", ModeServe, func(c *Config) { c.DaguURL, c.InstancesFile, c.DaguAPIKeyFile = "", file, keyFile }, "unset --dagu-api-key-file (DAGU_API_KEY_FILE)"},
		{"instances file and skip verify", ModeServe, func(c *Config) { c.DaguURL, c.InstancesFile, c.DaguInsecureSkipVerify = "", file, true }, "--dagu-insecure-skip-verify"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := baseConfig(t)
			tt.change(&c)
			err := c.Validate(tt.mode, testTargets)
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("unexpected error: %v", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Fatalf("error %v does not contain %q", err, tt.want)
			}
		})
	}
}

func TestValidateReportsEveryProblem(t *testing.T) {
	t.Parallel()
	c := baseConfig(t)
	c.DaguURL, c.LogFormat, c.WorkbookMaxRows = "", "xml", -1
	err := c.Validate(ModeServe, testTargets)
	for _, want := range []string{"--dagu-url", "--log-format", "--workbook-max-rows"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v does not mention %s", err, want)
		}
	}
}

func TestValidateNeverEchoesSecrets(t *testing.T) {
	t.Parallel()
	secretKey := "dagu_super secret"
	c := baseConfig(t)
	c.DaguAPIKey, c.AuthTokens = secretKey, []string{"tiny-tok", "also secret token"}
	err := c.Validate(ModeServe, testTargets)
	if err == nil {
		t.Fatal("expected errors")
	}
	for _, s := range []string{secretKey, "tiny-tok", "also secret token"} {
		if strings.Contains(err.Error(), s) {
			t.Errorf("error reveals %q: %v", s, err)
		}
	}
}

func TestIsLoopbackListen(t *testing.T) {
	t.Parallel()
	tests := map[string]bool{
		"127.0.0.1:8090": true, "127.1.2.3:1": true, "localhost:8090": true, "LOCALHOST:1": true,
		"[::1]:8090": true, "0.0.0.0:8090": false, ":8090": false, "[::]:8090": false,
		"10.0.0.5:8090": false, "gateway.internal:8090": false, "127.0.0.1": false,
	}
	for listen, want := range tests {
		if got := IsLoopbackListen(listen); got != want {
			t.Errorf("IsLoopbackListen(%q) = %v, want %v", listen, got, want)
		}
	}
}

func FuzzCheckDaguURL(f *testing.F) {
	for _, s := range []string{"https://dagu.example.com", "http://h:8080/base", "http://h/api/v1", "ftp://x", "http://u@h", "http://h/?q", "%zz", "http://0#", "http://h?"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		if checkDaguURL(raw) != nil {
			return
		}
		lower := strings.ToLower(raw)
		if !strings.HasPrefix(lower, "http://") && !strings.HasPrefix(lower, "https://") {
			t.Fatalf("accepted %q without an http(s) scheme", raw)
		}
		if strings.ContainsAny(raw, "?#") {
			t.Fatalf("accepted %q with a query or fragment", raw)
		}
	})
}
