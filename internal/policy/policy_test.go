// SPDX-License-Identifier: Apache-2.0

package policy

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/oidc"
)

var targets = []string{"dags", "dag", "runs", "run", "step_log", "reference"}

// writeKeys writes key files in dir and returns dir.
func writeKeys(t *testing.T, names ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, n := range names {
		if err := os.WriteFile(filepath.Join(dir, n), []byte("key-of-"+n+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func parse(t *testing.T, text, dir string) *Policy {
	t.Helper()
	p, err := Parse([]byte(text), ParseOptions{Dir: dir, Targets: targets})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

const teamPolicy = `rules:
  - name: sre
    groups: [sre]
    instances: ["*"]
    targets: ["*"]
    daguApiKeyFile: sre.key
  - name: dev-runs
    groups: [dev]
    scopes: [dagu.read]
    targets: [dags, runs, run]
  - name: ada
    emails: ["ADA@example.com"]
    targets: [dags]
  - name: contractors
    emails: ["*@contractor.example"]
    instances: [staging]
    targets: [dags]
  - name: bot
    subjects: [svc-ci]
    targets: [runs]
  - name: everyone
    subjects: ["*"]
    targets: [reference]
`

func TestMatchTakesTheFirstRuleThatMatches(t *testing.T) {
	t.Parallel()
	p := parse(t, teamPolicy, writeKeys(t, "sre.key"))
	cases := []struct {
		name     string
		id       oidc.Identity
		instance string
		rule     string
	}{
		{"group", oidc.Identity{Subject: "u1", Groups: []string{"dev", "sre"}}, "default", "sre"},
		{"group and scope", oidc.Identity{Subject: "u2", Groups: []string{"dev"}, Scopes: []string{"openid", "dagu.read"}}, "default", "dev-runs"},
		{"group without the scope", oidc.Identity{Subject: "u2", Groups: []string{"dev"}}, "default", "everyone"},
		{"email without case", oidc.Identity{Subject: "u3", Email: "ada@Example.com"}, "default", "ada"},
		{"email domain on its instance", oidc.Identity{Subject: "u4", Email: "bob@contractor.example"}, "staging", "contractors"},
		{"email domain on another instance", oidc.Identity{Subject: "u4", Email: "bob@contractor.example"}, "prod", "everyone"},
		{"email domain is not a suffix", oidc.Identity{Subject: "u5", Email: "eve@evil-contractor.example"}, "staging", "everyone"},
		{"subject", oidc.Identity{Subject: "svc-ci"}, "default", "bot"},
		{"anyone", oidc.Identity{Subject: "u6"}, "default", "everyone"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := p.Match(tc.id, tc.instance)
			if r == nil || r.Name != tc.rule {
				t.Fatalf("matched %v, want %s", r, tc.rule)
			}
		})
	}
	strict := parse(t, "rules:\n  - name: sre\n    groups: [sre]\n    targets: [dags]\n", "")
	if r := strict.Match(oidc.Identity{Subject: "u", Groups: []string{"dev"}}, "default"); r != nil {
		t.Errorf("no rule should match, got %s", r.Name)
	}
}

func TestRuleTargetsAndKeys(t *testing.T) {
	t.Parallel()
	dir := writeKeys(t, "sre.key", "prod.key")
	p := parse(t, teamPolicy, dir)
	sre, dev := p.Rules[0], p.Rules[1]
	if !sre.AllowsTarget("step_log") || !dev.AllowsTarget("runs") || dev.AllowsTarget("step_log") {
		t.Errorf("targets: sre %v, dev %v", sre.Targets, dev.Targets)
	}
	key, err := sre.Key("default").Key()
	if err != nil || key != "key-of-sre.key" {
		t.Errorf("sre's key %q, %v", key, err)
	}
	if dev.Key("default") != nil {
		t.Errorf("dev names no key, yet has one")
	}
	if p.ServiceKey("default") != sre.Key("default") {
		t.Errorf("the service key is not the first rule's")
	}
	multi := parse(t, "rules:\n  - name: a\n    groups: [x]\n    targets: [dags]\n    daguApiKeyFile: {prod: prod.key}\n", dir)
	if multi.Rules[0].Key("staging") != nil || multi.Rules[0].Key("prod") == nil {
		t.Errorf("per-instance keys: %v", multi.Rules[0].keys)
	}
	if multi.ServiceKey("staging") != nil {
		t.Errorf("a service key for an instance no rule has a key of")
	}
}

func TestParseRefusals(t *testing.T) {
	t.Parallel()
	dir := writeKeys(t, "k")
	if err := os.WriteFile(filepath.Join(dir, "empty"), []byte("\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	const ok = "rules:\n  - name: a\n    groups: [g]\n    targets: [dags]\n"
	cases := []struct{ name, file, want string }{
		{"empty", "", "empty"},
		{"no rules", "rules: []\n", "no rule means no access"},
		{"unknown top-level", ok + "other: 1\n", `unknown top-level field "other"`},
		{"unknown field", "rules:\n  - name: a\n    group: [g]\n    targets: [dags]\n", `line 3: unknown field "group" in rule 1`},
		{"field twice", "rules:\n  - name: a\n    name: b\n", "field name appears twice"},
		{"no name", "rules:\n  - groups: [g]\n    targets: [dags]\n", "no name"},
		{"bad name", "rules:\n  - name: SRE team\n    groups: [g]\n    targets: [dags]\n", "must be 1 to 64"},
		{"duplicate name", ok + "  - name: a\n    groups: [h]\n    targets: [dags]\n", `rule name "a" is already used`},
		{"matches no one", "rules:\n  - name: a\n    targets: [dags]\n", "matches no one"},
		{"no targets", "rules:\n  - name: a\n    groups: [g]\n", "has no targets"},
		{"unknown target", "rules:\n  - name: a\n    groups: [g]\n    targets: [dags, logs]\n", `unknown target "logs"`},
		{"star with others", "rules:\n  - name: a\n    groups: [g]\n    targets: [\"*\", dags]\n", "goes alone"},
		{"bad instance", "rules:\n  - name: a\n    groups: [g]\n    targets: [dags]\n    instances: [Prod]\n", "not an instance name"},
		{"bad email", "rules:\n  - name: a\n    emails: [\"*\"]\n    targets: [dags]\n", "must be an address"},
		{"empty list", "rules:\n  - name: a\n    groups: []\n    targets: [dags]\n", "must be a list of strings"},
		{"list of lists", "rules:\n  - name: a\n    groups: [[g]]\n    targets: [dags]\n", "must be a list of strings"},
		{"missing key file", "rules:\n  - name: a\n    groups: [g]\n    targets: [dags]\n    daguApiKeyFile: none.key\n", "no such file"},
		{"empty key file", "rules:\n  - name: a\n    groups: [g]\n    targets: [dags]\n    daguApiKeyFile: empty\n", "no usable key"},
		{"key map of a non-instance", "rules:\n  - name: a\n    groups: [g]\n    targets: [dags]\n    daguApiKeyFile: {\"a b\": k}\n", "not an instance name"},
		{"alias", "rules:\n  - &r\n    name: a\n    groups: [g]\n    targets: [dags]\n  - *r\n", "anchors and aliases"},
		{"too many values", "rules:\n  - name: a\n    groups: [" + strings.Repeat("g,", MaxValues) + "g]\n    targets: [dags]\n", "more than the 256"},
		{"too large", "#" + strings.Repeat("x", MaxFileBytes), "more than the"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := Parse([]byte(tc.file), ParseOptions{Dir: dir, Targets: targets})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
			if strings.Contains(err.Error(), "key-of-") {
				t.Errorf("the error holds a key: %v", err)
			}
		})
	}
}

func TestPolicyMustFitTheGateway(t *testing.T) {
	t.Parallel()
	dir := writeKeys(t, "k")
	cases := []struct {
		name      string
		file      string
		instances bool
		want      string
	}{
		{"one key file with instances", "rules:\n  - name: a\n    groups: [g]\n    targets: [dags]\n    daguApiKeyFile: k\n", true, "maps instance names"},
		{"key map without instances", "rules:\n  - name: a\n    groups: [g]\n    targets: [dags]\n    daguApiKeyFile: {prod: k}\n", false, "serves one Dagu"},
		{"instance without instances", "rules:\n  - name: a\n    groups: [g]\n    targets: [dags]\n    instances: [prod]\n", false, "serves one Dagu"},
		{"default key map without instances", "rules:\n  - name: a\n    groups: [g]\n    targets: [dags]\n    daguApiKeyFile: {default: k}\n    instances: [default]\n", false, ""},
		{"key map with instances", "rules:\n  - name: a\n    groups: [g]\n    targets: [dags]\n    daguApiKeyFile: {prod: k}\n", true, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-")+".yaml")
			if err := os.WriteFile(path, []byte(tc.file), 0o600); err != nil {
				t.Fatal(err)
			}
			_, err := Load(Options{Path: path, Targets: targets, Instances: tc.instances})
			switch {
			case tc.want == "" && err != nil:
				t.Fatal(err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("error %v, want %q", err, tc.want)
			}
		})
	}
}

// TestWatchKeepsTheLastGoodPolicy: a broken reload keeps the rules in
// service; a good one replaces them.
func TestWatchKeepsTheLastGoodPolicy(t *testing.T) {
	t.Parallel()
	dir := writeKeys(t)
	path := filepath.Join(dir, "policy.yaml")
	write := func(text string) {
		if err := os.WriteFile(path+".tmp", []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(path+".tmp", path); err != nil {
			t.Fatal(err)
		}
	}
	write("rules:\n  - name: a\n    groups: [g]\n    targets: [dags]\n")
	live, err := Watch(Options{Path: path, Targets: targets})
	if err != nil {
		t.Fatal(err)
	}
	write("rules:\n  - name: b\n    groups: [g]\n    targts: [dags]\n")
	live.Watcher().Check()
	if names := live.Policy().Names(); strings.Join(names, ",") != "a" {
		t.Fatalf("a broken file replaced the policy: %v", names)
	}
	write("rules:\n  - name: b\n    groups: [g]\n    targets: [dags]\n")
	live.Watcher().Check()
	if names := live.Policy().Names(); strings.Join(names, ",") != "b" {
		t.Fatalf("a good file did not replace the policy: %v", names)
	}
}

// FuzzParse feeds the policy parser arbitrary text: nothing panics, and a
// policy it accepts has named rules that each match someone and list
// their targets from the known ones.
func FuzzParse(f *testing.F) {
	f.Add(teamPolicy)
	f.Add("rules:\n  - name: a\n    groups: g\n    targets: [\"*\"]\n    instances: x\n")
	f.Add("rules:\n  - {name: a, subjects: [\"*\"], targets: [dags], emails: [\"*@x.y\"]}\n")
	f.Fuzz(func(t *testing.T, text string) {
		p, err := Parse([]byte(text), ParseOptions{Dir: t.TempDir(), Targets: targets})
		if err != nil {
			return
		}
		for _, r := range p.Rules {
			if !validName(r.Name) || len(r.Groups)+len(r.Subjects)+len(r.Emails)+len(r.Scopes) == 0 {
				t.Fatalf("accepted rule %+v", r)
			}
			for _, target := range r.Targets {
				if !strings.Contains(strings.Join(targets, " "), target) {
					t.Fatalf("accepted target %q", target)
				}
			}
		}
	})
}
