// SPDX-License-Identifier: Apache-2.0

package sharedstate

import (
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
)

func TestParseSeedURLReadsClusterAndSentinelURLs(t *testing.T) {
	t.Parallel()
	cases := []struct {
		raw  string
		want target
	}{
		{"redis+cluster://10.0.0.1:7000,10.0.0.2:7001,10.0.0.3", target{topology: Cluster,
			seeds: []string{"10.0.0.1:7000", "10.0.0.2:7001", "10.0.0.3:6379"}, display: "redis+cluster://10.0.0.1:7000,10.0.0.2:7001,10.0.0.3"}},
		{"rediss+cluster://app:s%40cret@clustercfg.example.cache.amazonaws.com:6379/?ca_file=/etc/ca.pem", target{topology: Cluster, tls: true,
			caFile: "/etc/ca.pem", username: "app", password: "s@cret", seeds: []string{"clustercfg.example.cache.amazonaws.com:6379"},
			display: "rediss+cluster://app:xxxxx@clustercfg.example.cache.amazonaws.com:6379/?ca_file=/etc/ca.pem"}},
		{"redis+cluster://[::1]:7000,[fd00::2]", target{topology: Cluster, seeds: []string{"[::1]:7000", "[fd00::2]:6379"},
			display: "redis+cluster://[::1]:7000,[fd00::2]"}},
		{"redis+sentinel://s1:26380,s2,s3/mymaster", target{topology: Sentinel, masterName: "mymaster",
			seeds: []string{"s1:26380", "s2:26379", "s3:26379"}, display: "redis+sentinel://s1:26380,s2,s3/mymaster"}},
		{"rediss+sentinel://:hunter2@s1:26379/gateway/3?skip_verify=true", target{topology: Sentinel, tls: true, skipVerify: true,
			password: "hunter2", masterName: "gateway", db: 3, seeds: []string{"s1:26379"},
			display: "rediss+sentinel://:xxxxx@s1:26379/gateway/3?skip_verify=true"}},
	}
	for _, c := range cases {
		got, err := parseSeedURL(c.raw)
		if err != nil {
			t.Fatalf("parseSeedURL(%q): %v", c.raw, err)
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q:\n got %+v\nwant %+v", c.raw, got, c.want)
		}
	}
}

func TestParseSeedURLRefusesWhatItCannotServe(t *testing.T) {
	t.Parallel()
	cases := map[string]string{
		"redis+cluster://":                                    "no host",
		"redis+cluster://a:7000,,b:7001":                      "not a host name",
		"redis+cluster://a:70000":                             "no valid port",
		"redis+cluster://a:7000/1":                            "has no path",
		"redis+cluster://a:7000?read_only=true":               "unknown option",
		"redis+cluster://a:7000?skip_verify=true":             "option of TLS",
		"rediss+cluster://a:7000?skip_verify=maybe":           "true or false",
		"rediss+cluster://a:7000?ca_file=":                    "names no file",
		"redis+cluster://a:7000#frag":                         "fragment",
		"redis+cluster://a:b:c":                               "not a host name",
		"redis+cluster://[::1":                                "host",
		"redis+sentinel://s1:26379":                           "names its master",
		"redis+sentinel://s1:26379/":                          "names its master",
		"redis+sentinel://s1:26379/m/1/2":                     "/master-name[/db]",
		"redis+sentinel://s1:26379/m/x":                       "not a number",
		"redis+sentinel://s1:26379/m/-1":                      "not a number",
		"redis+sentinel://:hunter2@s1:26379/m?password=p":     "unknown option",
		"redis+ring://a:1,b:2":                                "not a shared-state URL",
		"redis://a:1":                                         "not a shared-state URL",
		"redis+cluster://:hunter2@a:7000/%zz":                 "not a shared-state URL",
		"redis+cluster://" + strings.Repeat("a,", maxSeeds+1): "more than",
		"redis+cluster://" + strings.Repeat("a", maxURLBytes): "longer than",
	}
	for raw, want := range cases {
		_, err := parseSeedURL(raw)
		if err == nil {
			t.Errorf("parseSeedURL(%.60q) succeeded", raw)
			continue
		}
		if !strings.Contains(err.Error(), want) {
			t.Errorf("parseSeedURL(%.60q) = %q, want it to say %q", raw, err, want)
		}
		if strings.Contains(err.Error(), "hunter2") {
			t.Errorf("parseSeedURL(%.60q) = %q carries the password", raw, err)
		}
	}
}

func TestOpenMakesTheClientOfEachTopology(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	pw := filepath.Join(dir, "pw")
	if err := os.WriteFile(pw, []byte("s3cret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		raw      string
		sentinel string
		want     Topology
		wantErr  string
	}{
		{"redis://127.0.0.1:1/2", "", Standalone, ""},
		{"redis+cluster://127.0.0.1:1,127.0.0.1:2", "", Cluster, ""},
		{"redis+sentinel://:hunter2@127.0.0.1:1/m", pw, Sentinel, ""},
		{"redis+cluster://127.0.0.1:1", pw, "", "needs a redis+sentinel:// URL"},
		{"redis+sentinel://127.0.0.1:1/m", filepath.Join(dir, "missing"), "", "sentinel shared state password file"},
		{"rediss://127.0.0.1:1?ca_file=" + filepath.Join(dir, "missing"), "", "", "ca_file"},
		{"rediss+cluster://127.0.0.1:1?ca_file=" + pw, "", "", "no PEM certificate"},
		{"redis://127.0.0.1:1?ca_file=" + pw, "", "", "needs a rediss:// URL"},
	}
	for _, c := range cases {
		s, err := Open(Options{URL: c.raw, SentinelPasswordFile: c.sentinel, PasswordFile: pw, Registerer: prometheus.NewRegistry()})
		if c.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("Open(%q) = %v, want an error saying %q", c.raw, err, c.wantErr)
			}
			if err == nil {
				_ = s.Close()
			}
			continue
		}
		if err != nil {
			t.Fatalf("Open(%q): %v", c.raw, err)
		}
		if s.Topology() != c.want || (c.want == Cluster) != (s.conn.cluster != nil) {
			t.Errorf("Open(%q) made a %s client", c.raw, s.Topology())
		}
		if strings.Contains(s.URL(), "hunter2") || strings.Contains(s.URL(), "s3cret") {
			t.Errorf("URL() = %q shows a password", s.URL())
		}
		_ = s.Close()
	}
}

func TestTLSConfigChecksNodesAgainstTheSeedsHostName(t *testing.T) {
	t.Parallel()
	named, _ := parseSeedURL("rediss+cluster://cache.example.net:6380")
	byAddress, _ := parseSeedURL("rediss+cluster://10.0.0.5:6380")
	sentinel, _ := parseSeedURL("rediss+sentinel://sentinel.example.net/m")
	for _, c := range []struct {
		t    target
		want string
	}{{named, "cache.example.net"}, {byAddress, ""}, {sentinel, ""}} {
		cfg, err := tlsConfig(c.t)
		if err != nil || cfg.ServerName != c.want || cfg.InsecureSkipVerify {
			t.Errorf("%s: ServerName %q (%v), want %q", c.t.display, cfg.ServerName, err, c.want)
		}
	}
}

// FuzzParseSeedURL: any text is read or refused without a panic, and
// neither the error nor the shown URL carries the URL's password.
func FuzzParseSeedURL(f *testing.F) {
	for _, seed := range []string{
		"redis+cluster://a:7000,b:7001", "rediss+cluster://u:p@cfg.example:6379/?ca_file=/x&skip_verify=true",
		"redis+sentinel://s1,s2:26380/master/2", "redis+sentinel://:pw@[::1]:26379/m", "redis+cluster://a:b:c",
		"redis+cluster://:long-password-1@a:b:c", "rediss+sentinel://:long-password-2@s1/m/x",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		got, err := parseSeedURL(raw)
		pw := passwordOf(raw)
		if err != nil {
			// Fixed text may hold a short password by chance: look for
			// longer ones outside the one sentence every error starts with.
			if msg := strings.ReplaceAll(err.Error(), errURL.Error(), ""); len(pw) >= 8 && strings.Contains(msg, pw) {
				t.Fatalf("the error %q carries the password %q", err, pw)
			}
			return
		}
		if len(got.seeds) == 0 || len(got.seeds) > maxSeeds {
			t.Fatalf("%d seeds", len(got.seeds))
		}
		if at := strings.LastIndex(got.display, "@"); at >= 0 && got.password != "" && strings.Contains(got.display[:at], got.password) {
			t.Fatalf("display %q carries the password %q", got.display, got.password)
		}
	})
}

// passwordOf is the password net/url finds in a URL's first host form.
func passwordOf(raw string) string {
	_, rest, _ := cutScheme(raw)
	authority, _, _ := strings.Cut(rest, "/")
	userinfo, _, ok := strings.Cut(authority, "@")
	if !ok {
		return ""
	}
	u, err := url.Parse("x://" + userinfo + "@h")
	if err != nil || u.User == nil {
		return ""
	}
	p, _ := u.User.Password()
	return p
}
