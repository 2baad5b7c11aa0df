// SPDX-License-Identifier: Apache-2.0

package readtool

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/reference"
)

// The reference topics teach agents which dagu:// URIs, tool calls and
// targets exist. These tests feed every one of them through the tool's own
// parser (resolveURI, parseInput, resolve), so a topic cannot promise an
// address or a call the gateway refuses.

// topicPlaceholderSamples gives each placeholder of a URI shape
// ("{stepName}", "<dagRunId>") or each placeholder value of a JSON example
// ("<dag>", "...", keyed by the field it stands in) a concrete value, so
// the shape is checked as the agent would fill it in.
var topicPlaceholderSamples = map[string]string{
	"name":         "nightly",
	"dag":          "nightly",
	"dagRunId":     "latest",
	"subRunId":     "sub1",
	"stepName":     "export",
	"item":         "0",
	"bodyStepName": "load",
	"workspace":    "ops",
	"path":         "runbooks/deploy",
	"topic":        "authoring",
	"search":       "backup",
	"cursor":       "c1",
	"prefix":       "runbooks",
}

// topicNegativeURIs are URIs a topic names as examples of what dagu_read
// refuses; each must keep failing with the code the topic implies.
var topicNegativeURIs = map[string]Code{
	"dagu://queues":      CodeUnsupportedResource, // "Other families ... are unsupported_resource"
	"dagu://dags/{name}": CodeInvalidResourceURI,  // "dagu://dags/{name} alone is not a resource"
}

// topicRef is one address, call or target name found in a topic.
type topicRef struct {
	topic string
	line  int
	text  string
	// target is the target the surrounding Markdown table row pairs the
	// URI with ("" when the row names none).
	target string
}

func (r topicRef) String() string { return fmt.Sprintf("%s.md:%d: %s", r.topic, r.line, r.text) }

// builtinTopicTexts loads every built-in topic the way the gateway serves
// them.
func builtinTopicTexts(t *testing.T) (*reference.Library, map[string]string) {
	t.Helper()
	lib, err := reference.New(reference.Options{})
	if err != nil {
		t.Fatal(err)
	}
	texts := map[string]string{}
	for _, item := range lib.Topics() {
		text, err := lib.Topic(context.Background(), item.Name)
		if err != nil {
			t.Fatalf("topic %s: %v", item.Name, err)
		}
		texts[item.Name] = text
	}
	if len(texts) == 0 {
		t.Fatal("no reference topics loaded")
	}
	return lib, texts
}

func lineAt(text string, offset int) int { return strings.Count(text[:offset], "\n") + 1 }

// findURIs returns every dagu:// URI of a topic. A URI ends at whitespace,
// a backtick, a quote, a closing parenthesis, a table bar or a closing
// bracket that it did not open itself (brackets inside a URI mark optional
// parts, as in "foreach[/{item}]"); trailing sentence punctuation is
// dropped.
func findURIs(topic, text string) []topicRef {
	var refs []topicRef
	for offset := 0; ; {
		i := strings.Index(text[offset:], "dagu://")
		if i < 0 {
			return refs
		}
		start := offset + i
		end, depth := start, 0
	scan:
		for ; end < len(text); end++ {
			switch c := text[end]; {
			case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '`' || c == '"' || c == '\'' || c == ')' || c == '|':
				break scan
			case c == '[':
				depth++
			case c == ']':
				if depth == 0 {
					break scan
				}
				depth--
			}
		}
		uri := strings.TrimRight(text[start:end], ".,;:")
		refs = append(refs, topicRef{topic: topic, line: lineAt(text, start), text: uri, target: rowTarget(text, start)})
		offset = end
	}
}

// rowTarget returns the target a Markdown table row pairs with the URI at
// offset: for a row whose first cell holds the URI and whose next cell
// starts with a backticked name ("| `dagu://runs` | `runs` |").
func rowTarget(text string, offset int) string {
	lineStart := strings.LastIndex(text[:offset], "\n") + 1
	lineEnd := strings.IndexByte(text[offset:], '\n')
	if lineEnd < 0 {
		lineEnd = len(text) - offset
	}
	line := text[lineStart : offset+lineEnd]
	if !strings.HasPrefix(line, "|") {
		return ""
	}
	cells := strings.Split(strings.Trim(line, "| "), "|")
	if len(cells) < 2 || !strings.Contains(cells[0], "dagu://") || offset-lineStart > len(cells[0])+1 {
		return ""
	}
	m := regexp.MustCompile("^\\s*`([a-z_]+)`").FindStringSubmatch(cells[1])
	if m == nil {
		return ""
	}
	return m[1]
}

// expandOptional spells out every variant of a shape with optional parts
// in brackets: "a[/b[/c]]" gives "a", "a/b" and "a/b/c".
func expandOptional(s string) []string {
	open := strings.IndexByte(s, '[')
	if open < 0 {
		return []string{s}
	}
	depth, closing := 0, -1
	for i := open; i < len(s) && closing < 0; i++ {
		switch s[i] {
		case '[':
			depth++
		case ']':
			if depth--; depth == 0 {
				closing = i
			}
		}
	}
	if closing < 0 {
		return []string{s} // unbalanced: let the parser judge it as written
	}
	prefix, inner, rest := s[:open], s[open+1:closing], s[closing+1:]
	var out []string
	for _, tail := range expandOptional(rest) {
		out = append(out, prefix+tail)
		for _, in := range expandOptional(inner) {
			out = append(out, prefix+in+tail)
		}
	}
	return out
}

var uriPlaceholder = regexp.MustCompile(`\{[^{}/?]*\}|<[^<>/?]*>`)

// fillURIPlaceholders replaces every "{x}" or "<x>" of a URI shape with the
// percent-encoded sample value of x (one path segment each).
func fillURIPlaceholders(uri string) (string, error) {
	var missing []string
	filled := uriPlaceholder.ReplaceAllStringFunc(uri, func(p string) string {
		words := strings.Fields(strings.Trim(p, "{}<>"))
		sample, ok := "", false
		if len(words) > 0 {
			sample, ok = topicPlaceholderSamples[words[0]]
		}
		if !ok {
			missing = append(missing, p)
			return p
		}
		return url.PathEscape(sample)
	})
	if len(missing) > 0 {
		return "", fmt.Errorf("placeholder %s has no sample value in topicPlaceholderSamples", strings.Join(missing, ", "))
	}
	return filled, nil
}

// checkReferenceTopic fails when a resolved reference read names a topic
// the library does not have.
func checkReferenceTopic(t *testing.T, lib *reference.Library, ref topicRef, c *call) {
	t.Helper()
	if c.target != tReference {
		return
	}
	if _, err := lib.Topic(context.Background(), c.in.get(fName)); err != nil {
		t.Errorf("%s: names reference topic %q, which does not exist: %v", ref, c.in.get(fName), err)
	}
}

func TestTopicURIsResolve(t *testing.T) {
	t.Parallel()
	lib, texts := builtinTopicTexts(t)
	checked := 0
	for _, topic := range slices.Sorted(maps.Keys(texts)) {
		text := texts[topic]
		for _, ref := range findURIs(topic, text) {
			if ref.text == "dagu://" {
				continue // the scheme itself ("a `dagu://` URI")
			}
			if want, ok := topicNegativeURIs[ref.text]; ok {
				if _, err := resolveURI(ref.text); err == nil || err.Code != want {
					t.Errorf("%s: the topic says this URI is refused with %s; resolveURI gave %v", ref, want, err)
				}
				continue
			}
			for _, shape := range expandOptional(ref.text) {
				uri, err := fillURIPlaceholders(shape)
				if err != nil {
					t.Errorf("%s: %v", ref, err)
					continue
				}
				c, rerr := resolveURI(uri)
				checked++
				if rerr != nil {
					t.Errorf("%s: %s does not resolve: %s: %s", ref, uri, rerr.Code, rerr.Message)
					continue
				}
				if ref.target != "" && shape == ref.text && c.target != ref.target {
					t.Errorf("%s: the table pairs this URI with target %s, but it resolves to %s", ref, ref.target, c.target)
				}
				checkReferenceTopic(t, lib, ref, c)
			}
		}
	}
	if checked < 40 {
		t.Fatalf("checked only %d URIs in the topics; the extraction is broken", checked)
	}
}

// TestTopicRunShapesResolve checks the shapes written relative to a run
// ("{run}/steps/{stepName}/logs") against the definition of {run} the same
// topic gives, and the topic's rule that each of them except /logs also
// exists under a child run.
func TestTopicRunShapesResolve(t *testing.T) {
	t.Parallel()
	defPattern := regexp.MustCompile("`\\{run\\}` = `(dagu://[^`]+)`")
	shapePattern := regexp.MustCompile("`(\\{run\\}[^`]*)`")
	_, texts := builtinTopicTexts(t)
	checked := 0
	for _, topic := range slices.Sorted(maps.Keys(texts)) {
		text := texts[topic]
		shapes := shapePattern.FindAllStringSubmatchIndex(text, -1)
		if len(shapes) == 0 {
			continue
		}
		def := defPattern.FindStringSubmatch(text)
		if def == nil {
			t.Errorf("%s.md uses {run} shapes but does not define {run}", topic)
			continue
		}
		for _, m := range shapes {
			shape := text[m[2]:m[3]]
			ref := topicRef{topic: topic, line: lineAt(text, m[0]), text: shape}
			rest := strings.TrimPrefix(shape, "{run}")
			variants := []struct {
				uri  string
				want bool
			}{{def[1] + rest, true}}
			if rest != "" && !strings.HasPrefix(rest, "/sub/") {
				// "every shape above except /logs also exists under {run}/sub/{subRunId}"
				variants = append(variants, struct {
					uri  string
					want bool
				}{def[1] + "/sub/{subRunId}" + rest, rest != "/logs"})
			}
			for _, v := range variants {
				uri, err := fillURIPlaceholders(v.uri)
				if err != nil {
					t.Errorf("%s: %v", ref, err)
					continue
				}
				checked++
				_, rerr := resolveURI(uri)
				switch {
				case v.want && rerr != nil:
					t.Errorf("%s: %s does not resolve: %s: %s", ref, uri, rerr.Code, rerr.Message)
				case !v.want && rerr == nil:
					t.Errorf("%s: the topic says %s does not exist, but it resolves", ref, uri)
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("found no {run} shapes; the tools topic lists them")
	}
}

// findJSONCalls returns every JSON object of a topic that opens with a
// "target" or "uri" member: tool-call examples and output envelopes.
func findJSONCalls(topic, text string) []topicRef {
	opening := regexp.MustCompile(`\{\s*"(target|uri)"\s*:`)
	var refs []topicRef
	for _, m := range opening.FindAllStringIndex(text, -1) {
		end := jsonObjectEnd(text, m[0])
		if end < 0 {
			refs = append(refs, topicRef{topic: topic, line: lineAt(text, m[0]), text: text[m[0]:min(len(text), m[0]+80)]})
			continue
		}
		refs = append(refs, topicRef{topic: topic, line: lineAt(text, m[0]), text: text[m[0]:end]})
	}
	return refs
}

// jsonObjectEnd returns the offset just past the object opening at start,
// or -1 when its braces do not balance.
func jsonObjectEnd(text string, start int) int {
	depth, inString, escaped := 0, false, false
	for i := start; i < len(text); i++ {
		c := text[i]
		switch {
		case inString && escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case c == '"':
			inString = !inString
		case inString:
		case c == '{':
			depth++
		case c == '}':
			if depth--; depth == 0 {
				return i + 1
			}
		}
	}
	return -1
}

var valuePlaceholder = regexp.MustCompile(`^(<[^<>]+>|\.\.\.)$`)

// fillCallPlaceholders replaces placeholder values ("<dag>", "...") of a
// call example with the sample value of their field.
func fillCallPlaceholders(call map[string]any) error {
	for field, v := range call {
		s, ok := v.(string)
		if !ok || !valuePlaceholder.MatchString(s) {
			continue
		}
		sample, ok := topicPlaceholderSamples[field]
		if !ok {
			return fmt.Errorf("field %s has placeholder %q but no sample value in topicPlaceholderSamples", field, s)
		}
		call[field] = sample
	}
	return nil
}

func TestTopicJSONCallsResolve(t *testing.T) {
	t.Parallel()
	lib, texts := builtinTopicTexts(t)
	calls := 0
	for _, topic := range slices.Sorted(maps.Keys(texts)) {
		text := texts[topic]
		for _, ref := range findJSONCalls(topic, text) {
			var obj map[string]any
			if err := json.Unmarshal([]byte(ref.text), &obj); err != nil {
				t.Errorf("%s: not a JSON object: %v", ref, err)
				continue
			}
			if _, envelope := obj["data"]; envelope {
				checkEnvelopeExample(t, ref, obj)
				continue
			}
			if err := fillCallPlaceholders(obj); err != nil {
				t.Errorf("%s: %v", ref, err)
				continue
			}
			raw, _ := json.Marshal(obj)
			in, perr := parseInput(raw)
			if perr != nil {
				t.Errorf("%s: input refused: %s: %s", ref, perr.Code, perr.Message)
				continue
			}
			c, rerr := resolve(in)
			calls++
			if rerr != nil {
				t.Errorf("%s: call refused: %s: %s", ref, rerr.Code, rerr.Message)
				continue
			}
			checkReferenceTopic(t, lib, ref, c)
		}
	}
	if calls < 25 {
		t.Fatalf("checked only %d call examples in the topics; the extraction is broken", calls)
	}
}

// checkEnvelopeExample checks an output envelope shown in a topic: its
// target exists, its uri resolves to that target, and its references are
// the ones every result carries.
func checkEnvelopeExample(t *testing.T, ref topicRef, env map[string]any) {
	t.Helper()
	target, _ := env["target"].(string)
	if _, ok := targets[target]; !ok {
		t.Errorf("%s: envelope target %q is not a read target", ref, target)
	}
	if uri, ok := env["uri"].(string); ok {
		c, err := resolveURI(uri)
		switch {
		case err != nil:
			t.Errorf("%s: envelope uri %s does not resolve: %s", ref, uri, err.Message)
		case c.target != target:
			t.Errorf("%s: envelope uri resolves to %s, not its target %s", ref, c.target, target)
		}
	}
	var got []string
	for _, r := range env["references"].([]any) {
		s, _ := r.(string)
		got = append(got, s)
	}
	slices.Sort(got)
	want := []string{"dagu://reference/authoring", "dagu://reference/notifications", "dagu://reference/tools"}
	if !slices.Equal(got, want) {
		t.Errorf("%s: envelope references = %v, want %v (in any order)", ref, got, want)
	}
}

// TestTopicTargetNamesExist checks the target names prose mentions:
// "target `run`", "targets `a` and `b`", "the `a` and `b` targets" and the
// tool table's "`dagu_read`: `a`, `b`".
func TestTopicTargetNamesExist(t *testing.T) {
	t.Parallel()
	list := "`[^`]+`(?:(?:,|,? and|,? or)\\s+`[^`]+`)*"
	patterns := []*regexp.Regexp{
		regexp.MustCompile(`\btargets?\s+(` + list + `)`),
		regexp.MustCompile(`(` + list + `)\s+targets\b`),
		regexp.MustCompile("`dagu_read`:\\s+(" + list + ")"),
	}
	name := regexp.MustCompile("`([^`]+)`")
	_, texts := builtinTopicTexts(t)
	found := 0
	for _, topic := range slices.Sorted(maps.Keys(texts)) {
		text := texts[topic]
		for _, p := range patterns {
			for _, m := range p.FindAllStringSubmatchIndex(text, -1) {
				for _, n := range name.FindAllStringSubmatch(text[m[2]:m[3]], -1) {
					found++
					if _, ok := targets[n[1]]; !ok {
						ref := topicRef{topic: topic, line: lineAt(text, m[0]), text: text[m[0]:m[1]]}
						t.Errorf("%s: %q is named as a target but is not one", ref, n[1])
					}
				}
			}
		}
	}
	if found < 10 {
		t.Fatalf("found only %d target names in prose; the extraction is broken", found)
	}
}
