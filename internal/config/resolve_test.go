// SPDX-License-Identifier: Apache-2.0

package config

import (
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"
)

// resolveFrom registers the flags, parses args and resolves with env as the
// whole environment.
func resolveFrom(t *testing.T, args []string, env map[string]string) (Config, error) {
	t.Helper()
	fs := pflag.NewFlagSet("gateway", pflag.ContinueOnError)
	RegisterFlags(fs, ModeServe)
	if err := fs.Parse(args); err != nil {
		return Config{}, err
	}
	return Resolve(fs, func(k string) string { return env[k] })
}

func TestResolveDefaults(t *testing.T) {
	t.Parallel()
	got, err := resolveFrom(t, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := Config{
		Listen:              "127.0.0.1:8090",
		UpstreamTimeout:     15 * time.Second,
		MaxResponseBytes:    32 << 20,
		UpstreamBodyBudget:  32 << 20,
		MemoryBudget:        96 << 20,
		MaxAnswerBytes:      4 << 20,
		CacheTTL:            30 * time.Second,
		CallTimeout:         30 * time.Second,
		TextContent:         "contract",
		ResourceLinks:       "contract",
		UpstreamCompression: "auto",
		UpstreamConcurrency: 32,
		CallerConcurrency:   16,
		UpstreamAuth:        "service",
		OIDCGroupsClaim:     "groups",
		ListCacheTTL:        time.Second,
		TrustRecheck:        time.Minute,
		RunCacheSize:        32 << 20,
		SharedStateTimeout:  100 * time.Millisecond,
		WorkbookMaxBytes:    50 << 20,
		WorkbookMaxRows:     10000,
		WorkbookMaxSheets:   50,
		WorkbookMaxMemory:   64 << 20,
		WorkbookConcurrency: 2,
		LogLevel:            "info",
		LogFormat:           "json",
		ShutdownTimeout:     10 * time.Second,
		GCHeapFloor:         20 << 20,
		MemoryLimit:         "auto",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("defaults:\n got %#v\nwant %#v", fieldsOf(got), fieldsOf(want))
	}
}

// fieldsOf prints every field, secrets included, for test failure messages.
func fieldsOf(c Config) string {
	type plain Config
	return fmt.Sprintf("%+v", plain(c))
}

func TestResolvePrecedence(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		args  []string
		env   map[string]string
		check func(Config) any
		want  any
	}{
		{"env beats default", nil, map[string]string{"GATEWAY_LISTEN": "0.0.0.0:9000"},
			func(c Config) any { return c.Listen }, "0.0.0.0:9000"},
		{"flag beats env", []string{"--listen", "127.0.0.1:7000"}, map[string]string{"GATEWAY_LISTEN": "0.0.0.0:9000"},
			func(c Config) any { return c.Listen }, "127.0.0.1:7000"},
		{"flag equal to default still beats env", []string{"--listen=127.0.0.1:8090"}, map[string]string{"GATEWAY_LISTEN": "0.0.0.0:9000"},
			func(c Config) any { return c.Listen }, "127.0.0.1:8090"},
		{"empty env is unset", nil, map[string]string{"GATEWAY_LISTEN": "  "},
			func(c Config) any { return c.Listen }, "127.0.0.1:8090"},
		{"url trailing slashes trimmed", nil, map[string]string{"DAGU_URL": "https://dagu.example.com/base//"},
			func(c Config) any { return c.DaguURL }, "https://dagu.example.com/base"},
		{"rest base url", []string{"--dagu-url", "http://h:8080/"}, nil,
			func(c Config) any { return c.RESTBaseURL() }, "http://h:8080/api/v1"},
		{"tokens from env comma list", nil, map[string]string{"GATEWAY_AUTH_TOKENS": "aaaa, bbbb,,cccc "},
			func(c Config) any { return c.AuthTokens }, []string{"aaaa", "bbbb", "cccc"}},
		{"repeated flag replaces env list", []string{"--auth-token", "x1", "--auth-token", "x,2"}, map[string]string{"GATEWAY_AUTH_TOKENS": "env"},
			func(c Config) any { return c.AuthTokens }, []string{"x1", "x,2"}},
		{"allowed hosts from env", nil, map[string]string{"GATEWAY_ALLOWED_HOSTS": "a.example,b.example:8443"},
			func(c Config) any { return c.AllowedHosts }, []string{"a.example", "b.example:8443"}},
		{"workbook roots split like PATH", nil, map[string]string{"GATEWAY_WORKBOOK_ROOTS": "/data/a" + string(os.PathListSeparator) + "/data/b,c"},
			func(c Config) any { return c.WorkbookRoots }, []string{"/data/a", "/data/b,c"}},
		{"size with unit from env", nil, map[string]string{"GATEWAY_MAX_RESPONSE_BYTES": "512KiB"},
			func(c Config) any { return c.MaxResponseBytes }, int64(512 << 10)},
		{"size as plain bytes from flag", []string{"--max-response-bytes", "33554432"}, map[string]string{"GATEWAY_MAX_RESPONSE_BYTES": "1KiB"},
			func(c Config) any { return c.MaxResponseBytes }, int64(32 << 20)},
		{"workbook size from flag", []string{"--workbook-max-bytes=1MiB"}, nil,
			func(c Config) any { return c.WorkbookMaxBytes }, int64(1 << 20)},
		{"workbook memory from env", nil, map[string]string{"GATEWAY_WORKBOOK_MAX_MEMORY": "128MiB"},
			func(c Config) any { return c.WorkbookMaxMemory }, int64(128 << 20)},
		{"workbook memory flag beats env", []string{"--workbook-max-memory", "32MiB"}, map[string]string{"GATEWAY_WORKBOOK_MAX_MEMORY": "1GiB"},
			func(c Config) any { return c.WorkbookMaxMemory }, int64(32 << 20)},
		{"workbook concurrency from env", nil, map[string]string{"GATEWAY_WORKBOOK_CONCURRENCY": "4"},
			func(c Config) any { return c.WorkbookConcurrency }, 4},
		{"workbook concurrency from flag", []string{"--workbook-concurrency=1"}, map[string]string{"GATEWAY_WORKBOOK_CONCURRENCY": "4"},
			func(c Config) any { return c.WorkbookConcurrency }, 1},
		{"bool from env", nil, map[string]string{"DAGU_INSECURE_SKIP_VERIFY": "true"},
			func(c Config) any { return c.DaguInsecureSkipVerify }, true},
		{"bool flag beats env", []string{"--dagu-insecure-skip-verify=false"}, map[string]string{"DAGU_INSECURE_SKIP_VERIFY": "true"},
			func(c Config) any { return c.DaguInsecureSkipVerify }, false},
		{"duration from env", nil, map[string]string{"GATEWAY_CACHE_TTL": "0s"},
			func(c Config) any { return c.CacheTTL }, time.Duration(0)},
		{"int from env", nil, map[string]string{"GATEWAY_WORKBOOK_MAX_ROWS": "25"},
			func(c Config) any { return c.WorkbookMaxRows }, 25},
		{"log level lower-cased", nil, map[string]string{"GATEWAY_LOG_LEVEL": "DEBUG"},
			func(c Config) any { return c.LogLevel }, "debug"},
		{"api key from env", nil, map[string]string{"DAGU_API_KEY": "dagu_k"},
			func(c Config) any { return c.DaguAPIKey }, "dagu_k"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c, err := resolveFrom(t, tt.args, tt.env)
			if err != nil {
				t.Fatal(err)
			}
			if got := tt.check(c); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %#v, want %#v", got, tt.want)
			}
		})
	}
}

func TestResolveEnvErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"GATEWAY_UPSTREAM_TIMEOUT": "15"}, "GATEWAY_UPSTREAM_TIMEOUT"},
		{map[string]string{"GATEWAY_WORKBOOK_MAX_SHEETS": "many"}, "GATEWAY_WORKBOOK_MAX_SHEETS"},
		{map[string]string{"DAGU_INSECURE_SKIP_VERIFY": "yes please"}, "DAGU_INSECURE_SKIP_VERIFY"},
		{map[string]string{"GATEWAY_WORKBOOK_MAX_BYTES": "50MB"}, "GATEWAY_WORKBOOK_MAX_BYTES"},
		{map[string]string{"GATEWAY_WORKBOOK_MAX_MEMORY": "64MB"}, "GATEWAY_WORKBOOK_MAX_MEMORY"},
		{map[string]string{"GATEWAY_WORKBOOK_CONCURRENCY": "two"}, "GATEWAY_WORKBOOK_CONCURRENCY"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			t.Parallel()
			_, err := resolveFrom(t, nil, tt.env)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v does not name %s", err, tt.want)
			}
		})
	}
	_, err := resolveFrom(t, nil, map[string]string{"GATEWAY_CACHE_TTL": "x", "GATEWAY_SHUTDOWN_TIMEOUT": "y"})
	if err == nil || !strings.Contains(err.Error(), "GATEWAY_CACHE_TTL") || !strings.Contains(err.Error(), "GATEWAY_SHUTDOWN_TIMEOUT") {
		t.Errorf("both bad variables should be reported, got %v", err)
	}
}

func TestFlagParseRejectsBadSize(t *testing.T) {
	t.Parallel()
	if _, err := resolveFrom(t, []string{"--max-response-bytes", "32MB"}, nil); err == nil {
		t.Fatal("32MB should be refused on the command line")
	}
}

func TestEveryFlagNamesItsEnvAndDefault(t *testing.T) {
	t.Parallel()
	fs := pflag.NewFlagSet("gateway", pflag.ContinueOnError)
	RegisterFlags(fs, ModeServe)
	fs.VisitAll(func(f *pflag.Flag) {
		s, ok := Lookup(f.Name)
		if !ok {
			t.Errorf("--%s has no row in the settings table", f.Name)
			return
		}
		if !strings.Contains(f.Usage, "[env "+s.Env+"]") {
			t.Errorf("--%s help %q does not name %s", f.Name, f.Usage, s.Env)
		}
	})
	usage := fs.FlagUsages()
	for _, line := range strings.Split(strings.TrimSpace(usage), "\n") {
		if !strings.Contains(line, "(default ") {
			t.Errorf("help line shows no default: %q", line)
		}
	}
}

func TestParseByteSize(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in      string
		want    int64
		wantErr bool
	}{
		{"33554432", 32 << 20, false},
		{"32MiB", 32 << 20, false},
		{"512KiB", 512 << 10, false},
		{"512 kib", 512 << 10, false},
		{"1GiB", 1 << 30, false},
		{"100B", 100, false},
		{" 7 ", 7, false},
		{"0", 0, false},
		{"", 0, true},
		{"32MB", 0, true},
		{"MiB", 0, true},
		{"-1", 0, true},
		{"1.5MiB", 0, true},
		{"9999999999GiB", 0, true},
		{"1e6", 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			t.Parallel()
			got, err := ParseByteSize(tt.in)
			if (err != nil) != tt.wantErr || got != tt.want {
				t.Errorf("ParseByteSize(%q) = %d, %v; want %d, err=%v", tt.in, got, err, tt.want, tt.wantErr)
			}
		})
	}
}

func TestFormatByteSize(t *testing.T) {
	t.Parallel()
	tests := map[int64]string{0: "0", 1: "1", 1024: "1KiB", 32 << 20: "32MiB", 1<<30 + 1: "1073741825", 3 << 30: "3GiB"}
	for n, want := range tests {
		if got := FormatByteSize(n); got != want {
			t.Errorf("FormatByteSize(%d) = %q, want %q", n, got, want)
		}
	}
}

func FuzzParseByteSize(f *testing.F) {
	for _, s := range []string{"33554432", "32MiB", "512 KiB", "1gib", "32MB", "", "-1", "9223372036854775807", "8589934592GiB"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := ParseByteSize(s)
		if err != nil {
			return
		}
		if n < 0 {
			t.Fatalf("ParseByteSize(%q) = %d, negative", s, n)
		}
		again, err := ParseByteSize(FormatByteSize(n))
		if err != nil || again != n {
			t.Fatalf("round trip of %d via %q gave %d, %v", n, FormatByteSize(n), again, err)
		}
	})
}
