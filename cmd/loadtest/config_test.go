// SPDX-License-Identifier: Apache-2.0

package main

import (
	"io"
	"strings"
	"testing"
	"time"
)

// flagCase is one command line parseFlags reads: it fails with an error
// naming wantErr, or succeeds and the parsed config passes check.
type flagCase struct {
	name    string
	args    []string
	wantErr string // substring; "" for success
	check   func(t *testing.T, c config)
}

// run parses the case's arguments with env as the environment.
func (tt flagCase) run(t *testing.T, env func(string) string) {
	t.Helper()
	c, err := parseFlags(tt.args, io.Discard, env)
	if tt.wantErr == "" {
		if err != nil {
			t.Fatalf("error %v", err)
		}
		if tt.check != nil {
			tt.check(t, c)
		}
		return
	}
	if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
		t.Fatalf("error %v, want one mentioning %q", err, tt.wantErr)
	}
}

func TestParseFlags(t *testing.T) {
	noEnv := func(string) string { return "" }
	tests := []flagCase{
		{name: "defaults", check: func(t *testing.T, c config) {
			if c.url != "http://127.0.0.1:8090/mcp" || c.clients != 32 || c.duration != 10*time.Second ||
				strings.Join(c.mix, ",") != "dags,runs,dag_spec,dag" {
				t.Errorf("defaults %+v", c)
			}
		}},
		{name: "localhost", args: []string{"-url", "http://localhost:9/mcp"}},
		{name: "IPv6 loopback", args: []string{"-url", "http://[::1]:9/mcp"}},
		{name: "remote refused", args: []string{"-url", "http://10.0.0.5:8090/mcp"}, wantErr: "not a loopback address"},
		{name: "remote name refused", args: []string{"-url", "https://gateway.example.com/mcp"}, wantErr: "not a loopback address"},
		{name: "remote allowed", args: []string{"-url", "https://gateway.example.com/mcp", "-allow-remote"}},
		{name: "remote direct refused", args: []string{"-direct", "http://dagu.example.com"}, wantErr: "not a loopback address"},
		{name: "not http", args: []string{"-url", "ftp://127.0.0.1/mcp"}, wantErr: "not an http(s) URL"},
		{name: "too many clients", args: []string{"-clients", "513"}, wantErr: "-clients"},
		{name: "no clients", args: []string{"-clients", "0"}, wantErr: "-clients"},
		{name: "too long", args: []string{"-duration", "11m"}, wantErr: "-duration"},
		{name: "negative budget", args: []string{"-max-calls", "-1"}, wantErr: "-max-calls"},
		{name: "unknown target", args: []string{"-mix", "dags,nope"}, wantErr: `unknown target "nope"`},
		{name: "empty mix", args: []string{"-mix", " , "}, wantErr: "no target"},
		{name: "direct without an equivalent", args: []string{"-direct", "http://127.0.0.1:9", "-mix", "run_logs"}, wantErr: "no direct REST equivalent"},
		{name: "mix with spaces", args: []string{"-mix", "run, step_log"}, check: func(t *testing.T, c config) {
			if strings.Join(c.mix, ",") != "run,step_log" {
				t.Errorf("mix %q", c.mix)
			}
		}},
		{name: "stray argument", args: []string{"extra"}, wantErr: "unexpected arguments"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.run(t, noEnv)
		})
	}
}

func TestDaguKeyDefaultsToTheEnvironment(t *testing.T) {
	c, err := parseFlags(nil, io.Discard, func(k string) string {
		if k == "DAGU_API_KEY" {
			return "dagu_from_env"
		}
		return ""
	})
	if err != nil || c.daguKey != "dagu_from_env" {
		t.Fatalf("key %q, error %v", c.daguKey, err)
	}
}

func TestParseCompareFlags(t *testing.T) {
	t.Parallel()
	env := func(k string) string {
		if k == "DAGU_MCP_KEY" {
			return "mcp_from_env"
		}
		return ""
	}
	base := []string{"-baseline", "http://127.0.0.1:18080/mcp"}
	tests := []flagCase{
		{name: "baseline with the env key and a cached gateway", args: append(base, "-also", "cached=http://127.0.0.1:8092/mcp@12"), check: func(t *testing.T, c config) {
			eps := c.endpoints()
			if len(eps) != 3 || eps[0].label != "gateway" || eps[1] != (endpoint{label: "cached", url: "http://127.0.0.1:8092/mcp", pid: 12}) ||
				eps[2].label != "built-in" || eps[2].token != "mcp_from_env" || c.rounds != 3 {
				t.Errorf("endpoints %+v rounds %d", eps, c.rounds)
			}
		}},
		{name: "also without baseline", args: []string{"-also", "cached=http://127.0.0.1:8092/mcp"}, wantErr: "-also needs -baseline"},
		{name: "baseline and direct", args: append(base, "-direct", "http://127.0.0.1:18080"), wantErr: "exclude each other"},
		{name: "remote baseline", args: []string{"-baseline", "http://10.1.1.1/mcp"}, wantErr: "not a loopback address"},
		{name: "same label twice", args: append(base, "-also", "gateway=http://127.0.0.1:8092/mcp"), wantErr: "own label"},
		{name: "too many rounds", args: append(base, "-rounds", "21"), wantErr: "-rounds"},
		{name: "bad also", args: append(base, "-also", "nolabel"), wantErr: "label=URL"},
		{name: "flow target", args: append(base, "-mix", "investigate,dag_missing,reference")},
		{name: "flow has no direct equivalent", args: []string{"-direct", "http://127.0.0.1:9", "-mix", "investigate"}, wantErr: "no direct REST equivalent"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tt.run(t, env)
		})
	}
}

// TestHelpNeverPrintsAKeyFromTheEnvironment: -h lists every flag with its
// default, and a default taken from the environment was a key printed in
// the help (-baseline-key showed $DAGU_MCP_KEY's value). Every variable is
// set to a sentinel; the help names where the default comes from instead.
func TestHelpNeverPrintsAKeyFromTheEnvironment(t *testing.T) {
	t.Parallel()
	const sentinel = "sentinel-secret-5e1f0c2a"
	var help strings.Builder
	_, err := parseFlags([]string{"-h"}, &help, func(string) string { return sentinel })
	if err != errHelp {
		t.Fatalf("-h: error %v, want errHelp", err)
	}
	if strings.Contains(help.String(), sentinel) {
		t.Fatalf("the help prints a value of the environment:\n%s", help.String())
	}
	for _, source := range []string{"$DAGU_API_KEY", "$DAGU_MCP_KEY"} {
		if !strings.Contains(help.String(), source) {
			t.Errorf("the help does not say a key defaults to %s:\n%s", source, help.String())
		}
	}
}

// TestKeyFlagsOverrideTheEnvironment: a key given on the command line wins
// over the environment's.
func TestKeyFlagsOverrideTheEnvironment(t *testing.T) {
	t.Parallel()
	c, err := parseFlags([]string{"-dagu-key", "dagu_flag", "-baseline-key", "mcp_flag"}, io.Discard, func(string) string { return "from_env" })
	if err != nil || c.daguKey != "dagu_flag" || c.baseline.token != "mcp_flag" {
		t.Fatalf("keys %q %q, error %v", c.daguKey, c.baseline.token, err)
	}
}
