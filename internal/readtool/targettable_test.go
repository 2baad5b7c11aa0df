// SPDX-License-Identifier: Apache-2.0

package readtool

import (
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
)

// The tests below are the walkthrough of adding a target: a target is one
// row of targetTable, one handler, one port method and the REST slice
// behind it. Everything else derives from the row, and each test here
// fails when something derived is missing or has drifted from it.

// TestTargetTableIsComplete: target names are unique, every row has a
// reader, names a support rule (internal/upstream's tests check the rule
// exists) and has a summary (the README's target table), and a row takes
// the query field exactly when its reader has query rules.
func TestTargetTableIsComplete(t *testing.T) {
	t.Parallel()
	if len(targetOrder) != len(targets) {
		t.Fatalf("targetOrder has %d names for %d rows", len(targetOrder), len(targets))
	}
	for _, spec := range targetTable {
		if spec.reader == nil {
			t.Fatalf("%s has no handler", spec.name)
		}
		if spec.support == "" {
			t.Errorf("%s names no support rule", spec.name)
		}
		if spec.summary == "" {
			t.Errorf("%s has no summary: the README's target table would show an empty cell", spec.name)
		}
		for i, doc := range spec.reader.queryDocs() {
			if doc == "" {
				t.Errorf("%s: query parameter %s has no accepted-values text", spec.name, spec.reader.queryKeys()[i])
			}
		}
		if (spec.reader.queryKeys() != nil) != spec.allows(fQuery) {
			t.Errorf("%s: query rules and the query field disagree", spec.name)
		}
		if len(spec.patterns) > 0 && spec.reader.queryKeys() == nil && spec.noQuery == "" {
			t.Errorf("%s has a URI and takes no query, but no message refusing one (noQuery)", spec.name)
		}
		for _, f := range append(slices.Clone(spec.required), spec.optional...) {
			if !contains(targetModeFields, f) {
				t.Errorf("%s names unknown field %s", spec.name, f)
			}
		}
	}
}

// TestEveryTargetIsDescribed: each row's describe entry starts with its
// name, names every field and query parameter the row accepts, and is in
// the description; the schema's target enum is the table.
func TestEveryTargetIsDescribed(t *testing.T) {
	t.Parallel()
	def := Definition()
	enum := schemaTargetEnum(t, def)
	if !slices.Equal(enum, targetOrder) {
		t.Fatalf("schema enum %v, table %v", enum, targetOrder)
	}
	props := schemaProperties(t, def)
	for _, spec := range targetTable {
		entry := renderText(spec.describe, stated())
		if !strings.HasPrefix(entry+" ", spec.name+" ") {
			t.Errorf("%s: entry %q does not start with the target", spec.name, entry)
		}
		if !strings.Contains(def.Description, entry) {
			t.Errorf("%s: entry %q is not in the description", spec.name, entry)
		}
		words := append(append(slices.Clone(spec.required), spec.optional...), spec.reader.queryKeys()...)
		for _, w := range words {
			if _, ok := props[w]; !ok && !slices.Contains(spec.reader.queryKeys(), w) {
				t.Errorf("%s: field %s is not in the input schema", spec.name, w)
			}
			if w != fQuery && !regexp.MustCompile(`\b`+regexp.QuoteMeta(w)+`\b`).MatchString(entry) {
				t.Errorf("%s: entry %q does not name %s", spec.name, entry, w)
			}
		}
		if strings.Contains(entry, "query:") != spec.allows(fQuery) {
			t.Errorf("%s: entry %q and the query field disagree", spec.name, entry)
		}
		for _, m := range spec.mentions {
			if !strings.Contains(def.Description, m) {
				t.Errorf("%s: mention %q is not in the description", spec.name, m)
			}
		}
	}
}

// TestDisabledTargetLeavesOnlyItsEntry: switching a target off drops its
// own entry (and mentions) and keeps the entries sharing its line.
func TestDisabledTargetLeavesOnlyItsEntry(t *testing.T) {
	t.Parallel()
	for _, spec := range targetTable {
		desc := describe([]string{spec.name})
		for _, other := range targetTable {
			entry := renderText(other.describe, stated())
			if got := strings.Contains(desc, "- "+entry) || strings.Contains(desc, "; "+entry); got == (other.name == spec.name) {
				t.Errorf("%s disabled: entry of %s present=%v", spec.name, other.name, got)
			}
		}
		for _, m := range spec.mentions {
			if strings.Contains(desc, m) {
				t.Errorf("%s disabled: mention %q remains", spec.name, m)
			}
		}
	}
}

// TestPatternsRoundTrip: every pattern of every row parses a URI built
// from it back to the row, the pattern and the values; a target-mode read
// with those values builds the same URI and resource link.
func TestPatternsRoundTrip(t *testing.T) {
	t.Parallel()
	for i := range targetTable {
		spec := &targetTable[i]
		for j := range spec.patterns {
			p := &spec.patterns[j]
			t.Run(p.path, func(t *testing.T) {
				t.Parallel()
				values := sampleValues(p)
				uri := p.build(func(f string) string { return values[f] })
				c, err := resolveURI(uri)
				if err != nil {
					t.Fatalf("%s refused: %s", uri, err.Message)
				}
				if c.spec != spec || c.pattern != p || c.uri != uri || !maps.Equal(c.in.values, values) {
					t.Fatalf("%s parsed to %s %s %v", uri, c.target, c.uri, c.in.values)
				}
				if !spec.uriInTargetMode {
					return
				}
				args := map[string]any{fTarget: spec.name}
				for f, v := range values {
					args[f] = v
				}
				raw, _ := json.Marshal(args)
				in, perr := parseInput(raw)
				if perr != nil {
					t.Fatal(perr.Message)
				}
				c, err = resolve(in)
				if err != nil {
					t.Fatalf("%s refused: %s", raw, err.Message)
				}
				l := resourceLink(c)
				if l.URI != uri || l.Name != p.link.name || l.Title != p.link.title || l.MIMEType != p.link.mimeType {
					t.Fatalf("target mode link %+v, want %s %+v", l, uri, p.link)
				}
			})
		}
	}
}

// sampleValues gives each variable of a pattern a value that needs
// escaping and passes every segment rule.
func sampleValues(p *uriPattern) map[string]string {
	values := map[string]string{}
	for _, f := range p.vars {
		switch f {
		case fWorkspace:
			values[f] = "ops"
		case fPath:
			values[f] = "run books/deploy"
		case fName:
			values[f] = "a b"
		default:
			values[f] = f + "/x"
		}
	}
	return values
}

// TestPatternsBuildWhatModelBuilds: the model's URI builders, which give
// the data's links (logUri, specUri, ...), build what the rows' patterns
// build. A pattern no data links to needs no builder.
func TestPatternsBuildWhatModelBuilds(t *testing.T) {
	t.Parallel()
	v := map[string]string{fName: "n/1", fDAGRunID: "r 2", fSubRunID: "s%3", fStepName: "st?4",
		fItem: "1.inner.0", fBodyStepName: "b#5", fWorkspace: "ops", fPath: "a/b c"}
	models := map[string]string{
		"reference":                        model.ReferencesURI(),
		"reference/{topic}":                model.ReferenceURI(v[fName]),
		"dags":                             model.DAGsURI(),
		"dags/{name}/spec":                 model.DAGSpecURI(v[fName]),
		"wiki":                             model.WikiURI(""),
		"wiki/{workspace}":                 model.WikiURI(v[fWorkspace]),
		"wiki/{workspace}/{path}":          model.WikiPageURI(v[fWorkspace], v[fPath]),
		"runs":                             model.RunsURI(),
		runRoot:                            model.RunURI(v[fName], v[fDAGRunID], ""),
		runRoot + "/sub/{subRunId}":        model.RunURI(v[fName], v[fDAGRunID], v[fSubRunID]),
		runRoot + "/logs":                  model.RunLogsURI(v[fName], v[fDAGRunID]),
		runRoot + "/steps/{stepName}/logs": model.StepLogURI(v[fName], v[fDAGRunID], "", v[fStepName]),
		runRoot + "/sub/{subRunId}/steps/{stepName}/logs":                                     model.StepLogURI(v[fName], v[fDAGRunID], v[fSubRunID], v[fStepName]),
		runRoot + "/steps/{stepName}/foreach":                                                 model.ForeachItemsURI(v[fName], v[fDAGRunID], "", v[fStepName]),
		runRoot + "/sub/{subRunId}/steps/{stepName}/foreach":                                  model.ForeachItemsURI(v[fName], v[fDAGRunID], v[fSubRunID], v[fStepName]),
		runRoot + "/steps/{stepName}/foreach/{item}":                                          model.ForeachItemURI(v[fName], v[fDAGRunID], "", v[fStepName], v[fItem]),
		runRoot + "/sub/{subRunId}/steps/{stepName}/foreach/{item}":                           model.ForeachItemURI(v[fName], v[fDAGRunID], v[fSubRunID], v[fStepName], v[fItem]),
		runRoot + "/steps/{stepName}/foreach/{item}/steps/{bodyStepName}/logs":                model.ForeachStepLogURI(v[fName], v[fDAGRunID], "", v[fStepName], v[fItem], v[fBodyStepName]),
		runRoot + "/sub/{subRunId}/steps/{stepName}/foreach/{item}/steps/{bodyStepName}/logs": model.ForeachStepLogURI(v[fName], v[fDAGRunID], v[fSubRunID], v[fStepName], v[fItem], v[fBodyStepName]),
	}
	built := map[string]string{}
	for _, spec := range targetTable {
		for i := range spec.patterns {
			p := &spec.patterns[i]
			built[p.path] = p.build(func(f string) string { return v[f] })
		}
	}
	for path, want := range models {
		got, ok := built[path]
		switch {
		case !ok:
			t.Errorf("model builder of %s has no pattern", path)
		case got != want:
			t.Errorf("%s builds %s, model %s", path, got, want)
		}
	}
}

// TestFamilyNounsNameTheErrors: a path no pattern of its family fits is
// refused with the family's noun.
func TestFamilyNounsNameTheErrors(t *testing.T) {
	t.Parallel()
	for uri, want := range map[string]string{
		"dagu://reference/a/b": "Unsupported reference resource path.",
		"dagu://dags/a/b":      "Unsupported DAG resource path.",
		"dagu://wiki/a/b/c":    "Unsupported Wiki resource path.",
		"dagu://docs/a/b/c":    "Unsupported Wiki resource path.",
		"dagu://runs/a":        "Unsupported DAG-run resource path.",
	} {
		if _, err := resolveURI(uri); err == nil || err.Message != want {
			t.Errorf("%s: %v, want %q", uri, err, want)
		}
	}
}

// TestResourcesFollowTheRows: a template's "(query: ...)" list names the
// row's query parameters in order, only collections are listed entry
// points, and only a family's first pattern names the family's noun.
func TestResourcesFollowTheRows(t *testing.T) {
	t.Parallel()
	queryList := regexp.MustCompile(`\(query: ([^)]*)\)`)
	for _, spec := range targetTable {
		for _, p := range spec.patterns {
			if m := queryList.FindStringSubmatch(p.description); m != nil {
				if got := strings.Split(m[1], ", "); !slices.Equal(got, spec.reader.queryKeys()) {
					t.Errorf("%s: template lists %v, rules %v", p.path, got, spec.reader.queryKeys())
				}
			}
			if p.entry != "" && len(p.vars) > 0 {
				t.Errorf("%s: a pattern with variables is listed", p.path)
			}
			if p.noun != "" && familyNouns[p.family] != p.noun {
				t.Errorf("%s: called %q, but its family's first pattern names it %q", p.path, p.noun, familyNouns[p.family])
			}
		}
	}
	if want := fmt.Sprintf("the last %d days", runWindowDays); !strings.Contains(targets[tRuns].patterns[0].description, want) {
		t.Errorf("runs template does not say %q", want)
	}
}

// TestDescriptionURIsCoverThePatterns: the description's "URIs:" line,
// with its [optional] parts expanded, names every pattern of every row.
func TestDescriptionURIsCoverThePatterns(t *testing.T) {
	t.Parallel()
	desc := Definition().Description
	start := strings.Index(desc, "URIs: ")
	end := strings.Index(desc[start:], ". Percent-escape")
	if start < 0 || end < 0 {
		t.Fatal("the description has no URIs line")
	}
	described := map[string]bool{}
	subPrefix := ""
	for _, item := range strings.Split(desc[start+len("URIs: "):start+end], ", ") {
		if rest, ok := strings.CutPrefix(item, "and the same run forms under "); ok {
			subPrefix = rest
			continue
		}
		item = strings.Replace(item, ".../", model.Scheme+runRoot+"/", 1)
		for _, u := range expandOptional(item) {
			described[u] = true
		}
	}
	root := model.Scheme + runRoot
	for u := range described {
		if subPrefix != "" && strings.HasPrefix(u, root) && !strings.HasPrefix(u, root+"/logs") {
			described[subPrefix+strings.TrimPrefix(u, root)] = true
		}
	}
	for _, spec := range targetTable {
		for _, p := range spec.patterns {
			if !described[model.Scheme+p.path] {
				t.Errorf("the description's URIs line does not name %s", p.path)
			}
		}
	}
}

// TestEveryTargetHasAnExample: each target that reads Dagu has an
// example read, which TestRowExamples pins as a golden. The workbook reads
// a local file; workbook_test.go covers it.
func TestEveryTargetHasAnExample(t *testing.T) {
	t.Parallel()
	for _, spec := range targetTable {
		if spec.example == "" && spec.name != tWorkbook {
			t.Errorf("target %s has no example read", spec.name)
		}
		if spec.example != "" && !strings.Contains(spec.example, fmt.Sprintf(`"target":%q`, spec.name)) {
			t.Errorf("target %s: example %s reads another target", spec.name, spec.example)
		}
	}
}
