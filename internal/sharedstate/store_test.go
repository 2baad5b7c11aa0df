// SPDX-License-Identifier: Apache-2.0

package sharedstate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/redis/go-redis/v9"
)

func TestOpenRefusesBadSettings(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty")
	long := filepath.Join(dir, "long")
	if err := os.WriteFile(empty, []byte(" \n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(long, []byte(strings.Repeat("p", maxPasswordBytes+1)), 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		opts Options
		want string
	}{
		{"no URL", Options{}, "URL is required"},
		{"http URL", Options{URL: "http://127.0.0.1:6379"}, "not a shared-state URL"},
		{"no host", Options{URL: "redis://"}, "not a shared-state URL"},
		{"bad database", Options{URL: "redis://:hunter2@127.0.0.1:6379/notanumber"}, "invalid database"},
		{"missing password file", Options{URL: "redis://127.0.0.1:6379", PasswordFile: filepath.Join(dir, "nope")}, "password file"},
		{"empty password file", Options{URL: "redis://127.0.0.1:6379", PasswordFile: empty}, "is empty"},
		{"oversized password file", Options{URL: "redis://127.0.0.1:6379", PasswordFile: long}, "longer than"},
		{"negative timeout", Options{URL: "redis://127.0.0.1:6379", Timeout: -time.Second}, "timeout"},
		{"oversized values", Options{URL: "redis://127.0.0.1:6379", MaxValueBytes: maxEnvelopePayload + 1}, "max value bytes"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			s, err := Open(c.opts)
			if err == nil {
				_ = s.Close()
				t.Fatalf("Open(%+v) succeeded", c.opts)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %q does not say %q", err, c.want)
			}
			if strings.Contains(err.Error(), "hunter2") {
				t.Fatalf("error %q carries the URL's password", err)
			}
		})
	}
}

func TestOpenAcceptsRedisAndRediss(t *testing.T) {
	t.Parallel()
	pw := filepath.Join(t.TempDir(), "pw")
	if err := os.WriteFile(pw, []byte("s3cret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, raw := range []string{"redis://127.0.0.1:1", "rediss://cache.example:6380/2", "redis://user:pass@127.0.0.1:1/0"} {
		s, err := Open(Options{URL: raw, PasswordFile: pw, Registerer: prometheus.NewRegistry()})
		if err != nil {
			t.Fatalf("Open(%q): %v", raw, err)
		}
		if strings.Contains(s.URL(), "pass@") || strings.Contains(s.URL(), "s3cret") {
			t.Fatalf("URL() = %q shows a password", s.URL())
		}
		if raw[:6] == "rediss" && s.client.(*redis.Client).Options().TLSConfig == nil {
			t.Fatalf("%q must use TLS", raw)
		}
		_ = s.Close()
	}
}

func TestParseInfo(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, raw string
		want      ServerInfo
	}{
		{"redis", "# Server\r\nredis_version:7.0.15\r\nredis_mode:standalone\r\n", ServerInfo{Server: "redis", Version: "7.0.15"}},
		{"valkey", "# Server\r\nredis_version:7.2.4\r\nserver_name:valkey\r\nvalkey_version:8.1.1\r\n", ServerInfo{Server: "valkey", Version: "8.1.1"}},
		{"garbage", "hello world\n:::\n", ServerInfo{Server: "unknown", Version: "unknown"}},
		{"empty", "", ServerInfo{Server: "unknown", Version: "unknown"}},
	}
	for _, c := range cases {
		if got := parseInfo(c.raw); got.Server != c.want.Server || got.Version != c.want.Version {
			t.Errorf("%s: parseInfo = %+v, want %+v", c.name, got, c.want)
		}
	}
}

func FuzzParseInfo(f *testing.F) {
	f.Add("# Server\r\nredis_version:7.0.15\r\n")
	f.Add("valkey_version:8.0.0\nredis_version:7.2.4\n")
	f.Fuzz(func(t *testing.T, raw string) {
		info := parseInfo(raw)
		if info.Server == "" || info.Version == "" {
			t.Fatalf("parseInfo(%q) = %+v: empty fields", raw, info)
		}
		if len(info.Version) > len(raw) && info.Version != "unknown" {
			t.Fatalf("a version longer than the answer")
		}
	})
}
