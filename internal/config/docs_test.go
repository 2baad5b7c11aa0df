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

// readmeRow is one row of the README's configuration table.
type readmeRow struct{ env, def, modes string }

// readmeConfiguration reads the table of README.md's Configuration section,
// keyed by flag.
func readmeConfiguration(t *testing.T) map[string]readmeRow {
	t.Helper()
	text := string(repoFile(t, "README.md"))
	start := strings.Index(text, "\n## Configuration\n")
	if start < 0 {
		t.Fatal("README.md has no Configuration section")
	}
	section := text[start+1:]
	if end := strings.Index(section[3:], "\n## "); end >= 0 {
		section = section[:end+3]
	}
	flag := regexp.MustCompile("^`--([a-z0-9-]+)`")
	rows := map[string]readmeRow{}
	for l := range strings.Lines(section) {
		cells := strings.Split(strings.Trim(strings.TrimSpace(l), "|"), " | ")
		if len(cells) < 5 {
			continue
		}
		m := flag.FindStringSubmatch(strings.TrimSpace(cells[0]))
		if m == nil {
			continue
		}
		if _, dup := rows[m[1]]; dup {
			t.Errorf("README.md lists --%s twice", m[1])
		}
		rows[m[1]] = readmeRow{env: cells[1], def: cells[2], modes: strings.TrimSpace(cells[3])}
	}
	return rows
}

// TestREADMEConfigurationMatchesTheTable: README.md's configuration table
// has one row per setting with its variable, its default and the
// subcommands that take it, and no row the table lacks.
func TestREADMEConfigurationMatchesTheTable(t *testing.T) {
	t.Parallel()
	rows := readmeConfiguration(t)
	for _, s := range Settings() {
		row, ok := rows[s.Flag]
		if !ok {
			t.Errorf("README.md's configuration table has no row for --%s", s.Flag)
			continue
		}
		delete(rows, s.Flag)
		if !strings.Contains(row.env, "`"+s.Env+"`") {
			t.Errorf("README.md: --%s names %s, want %s", s.Flag, row.env, s.Env)
		}
		if s.Default != "" && !strings.Contains(row.def, "`"+s.Default+"`") {
			t.Errorf("README.md: --%s default %s, want `%s`", s.Flag, row.def, s.Default)
		}
		var modes []string
		for _, m := range s.Modes {
			modes = append(modes, string(m))
		}
		want := strings.Join(modes, ", ")
		got := strings.Split(row.modes, ", ")
		slices.Sort(got)
		slices.Sort(modes)
		if !slices.Equal(got, modes) {
			t.Errorf("README.md: --%s is for %q, the settings table says %q", s.Flag, row.modes, want)
		}
	}
	for flag := range rows {
		t.Errorf("README.md lists --%s, which is not in the settings table", flag)
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
