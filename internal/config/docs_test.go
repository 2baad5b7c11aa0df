// SPDX-License-Identifier: Apache-2.0

package config

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/pflag"
	"go.yaml.in/yaml/v3"
)

// repoFile is a file of the repository, read from this package's directory.
func repoFile(t *testing.T, parts ...string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(append([]string{"..", ".."}, parts...)...))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestSettingsTable: flags and variables are unique, and every row has
// help, subcommands, a chart value and a default that registers.
func TestSettingsTable(t *testing.T) {
	t.Parallel()
	flags, envs := map[string]bool{}, map[string]bool{}
	for _, s := range Settings() {
		if flags[s.Flag] || envs[s.Env] {
			t.Errorf("--%s / %s appears twice", s.Flag, s.Env)
		}
		flags[s.Flag], envs[s.Env] = true, true
		if s.Help == "" || len(s.Modes) == 0 || s.Chart == "" || s.field == nil {
			t.Errorf("--%s lacks help, subcommands, chart value or field: %+v", s.Flag, s)
		}
		if (s.Kind == KindList) != (s.split != nil) {
			t.Errorf("--%s: a list needs a separator, and only a list has one", s.Flag)
		}
	}
	// Every default registers (a bad one panics), and resolves without
	// error with an empty environment.
	for _, mode := range []Mode{ModeServe, ModeStdio, ModeDemo, ModeDoctor, ModeHealthcheck} {
		fs := pflag.NewFlagSet(string(mode), pflag.ContinueOnError)
		RegisterFlags(fs, mode)
		if _, err := Resolve(fs, func(string) string { return "" }); err != nil {
			t.Errorf("%s: defaults do not resolve: %v", mode, err)
		}
	}
}

// TestSettingsAreCopies: changing a returned row leaves the table alone.
func TestSettingsAreCopies(t *testing.T) {
	t.Parallel()
	rows := Settings()
	rows[0].Modes[0] = "changed"
	rows[0].Env = "CHANGED"
	again, _ := Lookup(rows[0].Flag)
	if again.Modes[0] == "changed" || again.Env == "CHANGED" {
		t.Fatalf("the table changed through a returned row: %+v", again)
	}
}

// TestEnvExampleListsEverySetting: deploy/examples/gateway.env.example has
// a line, set or commented out, for every variable, and no other.
func TestEnvExampleListsEverySetting(t *testing.T) {
	t.Parallel()
	line := regexp.MustCompile(`^#?([A-Z][A-Z0-9_]*)=`)
	listed := map[string]bool{}
	sc := bufio.NewScanner(strings.NewReader(string(repoFile(t, "deploy", "examples", "gateway.env.example"))))
	for sc.Scan() {
		if m := line.FindStringSubmatch(sc.Text()); m != nil {
			listed[m[1]] = true
		}
	}
	for _, s := range Settings() {
		if !listed[s.Env] {
			t.Errorf("gateway.env.example has no line for %s (--%s)", s.Env, s.Flag)
		}
		delete(listed, s.Env)
	}
	for env := range listed {
		t.Errorf("gateway.env.example lists %s, which no setting reads", env)
	}
}

// referenceEntry is what docs/configuration.md says of one flag.
type referenceEntry struct{ env, def, modes, chart string }

// referenceEntries reads the sections of docs/configuration.md, keyed by
// flag: each "### `--flag`" heading and the facts listed under it. It
// reads the file as a reader would, not through the renderer, so a
// renderer that leaves a setting out fails too.
func referenceEntries(t *testing.T) map[string]referenceEntry {
	t.Helper()
	heading := regexp.MustCompile("^### `--([a-z0-9-]+)`$")
	fact := regexp.MustCompile(`^- ([A-Za-z ]+): (.*)$`)
	entries := map[string]referenceEntry{}
	var flag string
	for l := range strings.Lines(string(repoFile(t, "docs", "configuration.md"))) {
		l = strings.TrimRight(l, "\n")
		if m := heading.FindStringSubmatch(l); m != nil {
			if _, dup := entries[m[1]]; dup {
				t.Errorf("docs/configuration.md describes --%s twice", m[1])
			}
			flag = m[1]
			entries[flag] = referenceEntry{}
			continue
		}
		m := fact.FindStringSubmatch(l)
		if flag == "" || m == nil {
			continue
		}
		e := entries[flag]
		switch m[1] {
		case "Environment":
			e.env = m[2]
		case "Default":
			e.def = m[2]
		case "Subcommands":
			e.modes = m[2]
		case "Helm chart value":
			e.chart = m[2]
		}
		entries[flag] = e
	}
	return entries
}

// TestReferenceDescribesEverySetting: docs/configuration.md has one
// section per setting with its variable, its default, the subcommands
// that take it and its chart value, and none the table lacks.
func TestReferenceDescribesEverySetting(t *testing.T) {
	t.Parallel()
	entries := referenceEntries(t)
	for _, s := range Settings() {
		e, ok := entries[s.Flag]
		if !ok {
			t.Errorf("docs/configuration.md has no section for --%s: run `go generate ./internal/config`", s.Flag)
			continue
		}
		delete(entries, s.Flag)
		if e.env != "`"+s.Env+"`" {
			t.Errorf("docs/configuration.md: --%s names %q, want %s", s.Flag, e.env, s.Env)
		}
		if want := orZero(s.Default, s.ZeroDefault); !strings.Contains(e.def, want) {
			t.Errorf("docs/configuration.md: --%s default %q, want %q", s.Flag, e.def, want)
		}
		if e.chart != "`"+s.Chart+"`" {
			t.Errorf("docs/configuration.md: --%s chart value %q, want %s", s.Flag, e.chart, s.Chart)
		}
		var modes []string
		for _, m := range s.Modes {
			modes = append(modes, string(m))
		}
		got := strings.Split(e.modes, ", ")
		slices.Sort(got)
		slices.Sort(modes)
		if !slices.Equal(got, modes) {
			t.Errorf("docs/configuration.md: --%s is for %q, the settings table says %q", s.Flag, e.modes, modes)
		}
	}
	for flag := range entries {
		t.Errorf("docs/configuration.md describes --%s, which is not in the settings table", flag)
	}
}

// TestEverySettingHasAGroup: help and the reference list every setting
// under a group with a title and a sentence about it.
func TestEverySettingHasAGroup(t *testing.T) {
	t.Parallel()
	for _, s := range Settings() {
		if s.Group == GroupNone || s.Group.Title() == "" || s.Group.About() == "" || !slices.Contains(Groups(), s.Group) {
			t.Errorf("--%s has no group help and the reference can list it under: %d", s.Flag, s.Group)
		}
	}
}

// TestChartHasEverySettingsValue: the Helm chart's values.yaml defines the
// value every row names (the deployment check, make deploy-check, also
// renders the chart and looks for the variable).
func TestChartHasEverySettingsValue(t *testing.T) {
	t.Parallel()
	var values map[string]any
	if err := yaml.Unmarshal(repoFile(t, "deploy", "helm", "dagu-mcp-gateway", "values.yaml"), &values); err != nil {
		t.Fatal(err)
	}
	for _, s := range Settings() {
		if !hasPath(values, s.Chart) {
			t.Errorf("--%s: values.yaml has no %s", s.Flag, s.Chart)
		}
	}
}

// hasPath reports whether the dotted path names a key of values, whatever
// its value (null included).
func hasPath(values map[string]any, path string) bool {
	keys := strings.Split(path, ".")
	node := values
	for i, key := range keys {
		v, ok := node[key]
		if !ok {
			return false
		}
		if i == len(keys)-1 {
			return true
		}
		if node, ok = v.(map[string]any); !ok {
			return false
		}
	}
	return false
}
