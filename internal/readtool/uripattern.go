// SPDX-License-Identifier: Apache-2.0

package readtool

import (
	"fmt"
	"strings"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
)

// uriPattern is one dagu:// shape of a target, written as the path of its
// resource template ("runs/{name}/{dagRunId}/logs"). The same pattern
// parses a URI-mode request, builds the canonical URI of a read, names the
// read's resource link and, when it has a description, is a resource
// template.
type uriPattern struct {
	// path is the template after "dagu://", without the query part.
	path string
	// family is the first path element: the URI's host.
	family string
	// parts are the path elements after the family.
	parts []patternPart
	// vars are the fields of the variable parts, in path order.
	vars []string
	// link is the pattern's row of the contract's resource-link table.
	link linkSpec
	// templateName and templateTitle name the resource template when they
	// differ from the link's.
	templateName, templateTitle string
	// description describes the resource template; "" means the pattern
	// is not advertised as a template.
	description string
	// entry describes the URI in resources/list; "" means it is not
	// listed (only patterns without variables can be).
	entry string
	// noun names the pattern's family in "Unsupported ... resource path."
	// when it differs from the family; only a family's first pattern
	// sets it.
	noun string
}

// patternPart is a literal path element or a variable naming an input
// field.
type patternPart struct {
	literal string
	field   string
}

// linkSpec is one row of the contract's resource-link table.
type linkSpec struct {
	name, mimeType, title string
}

// templateVariables maps template variables that are not named after
// their input field.
var templateVariables = map[string]string{"topic": fName}

// at compiles a pattern with its link and template description; it panics
// on a malformed path, so a bad row fails every test.
func at(path string, link linkSpec, description string) uriPattern {
	elems := strings.Split(path, "/")
	p := uriPattern{path: path, family: elems[0], link: link, description: description}
	for _, e := range elems[1:] {
		if !strings.HasPrefix(e, "{") {
			p.parts = append(p.parts, patternPart{literal: e})
			continue
		}
		name := strings.TrimSuffix(strings.TrimPrefix(e, "{"), "}")
		field := name
		if f, ok := templateVariables[name]; ok {
			field = f
		}
		if !contains(targetModeFields, field) || field == fTarget || field == fQuery {
			panic(fmt.Sprintf("readtool: pattern %s names no input field with {%s}", path, name))
		}
		p.parts = append(p.parts, patternPart{field: field})
		p.vars = append(p.vars, field)
	}
	return p
}

// listed marks a pattern as a resources/list entry point.
func (p uriPattern) listed(entry string) uriPattern {
	p.entry = entry
	return p
}

// called names the pattern's URI family in errors (see uriPattern.noun).
func (p uriPattern) called(noun string) uriPattern {
	p.noun = noun
	return p
}

// template names the resource template apart from the link.
func (p uriPattern) template(name, title string) uriPattern {
	p.templateName, p.templateTitle = name, title
	return p
}

// link builds a resource-link row.
func link(name, mimeType, title string) linkSpec { return linkSpec{name, mimeType, title} }

// runRoot is the run-family prefix of every run pattern; subRunTail
// follows it in the sub-run form of a run pattern.
const (
	runRoot    = "runs/{name}/{dagRunId}"
	subRunTail = "/sub/{subRunId}"
)

// withSubRuns gives a run pattern (a tail after runRoot) twice: for the
// root run, and under a sub-run ("runs/{name}/{dagRunId}/sub/{subRunId}"),
// where link and template are named "sub_..." and titled "Sub ...".
func withSubRuns(tail string, l linkSpec, description string) []uriPattern {
	return []uriPattern{
		at(runRoot+tail, l, description),
		at(runRoot+subRunTail+tail, link("sub_"+l.name, l.mimeType, "Sub "+l.title), description),
	}
}

// match reports whether decoded path segments fit the pattern and, if so,
// the field values they give.
func (p *uriPattern) match(segs []string) (map[string]string, bool) {
	if len(segs) != len(p.parts) {
		return nil, false
	}
	values := make(map[string]string, len(p.vars)+1)
	for i, part := range p.parts {
		switch {
		case part.field != "":
			values[part.field] = segs[i]
		case segs[i] != part.literal:
			return nil, false
		}
	}
	return values, true
}

// build writes the pattern's URI with each variable escaped as one path
// segment, exactly as the model's URI builders do.
func (p *uriPattern) build(value func(string) string) string {
	var b strings.Builder
	b.Grow(len(model.Scheme) + len(p.path) + 32)
	b.WriteString(model.Scheme)
	b.WriteString(p.family)
	for _, part := range p.parts {
		b.WriteByte('/')
		if part.field == "" {
			b.WriteString(part.literal)
		} else {
			b.WriteString(model.EscapeSegment(value(part.field)))
		}
	}
	return b.String()
}

// impliedValues are field values a URI expresses by leaving the segment
// out: the all-workspaces wiki is dagu://wiki.
var impliedValues = map[string]string{fWorkspace: allWorkspaces}

// uriField reports whether a target-mode field value appears in the URI.
func uriField(in *input, field string) bool {
	return in.has(field) && in.get(field) != impliedValues[field]
}

// patternFor picks the row's pattern for a target-mode call: of the
// patterns whose variables the call all supplies, the one with the most
// (a sub-run's pattern over the root run's, a workspace's over the wiki's).
// nil when none fits.
func (s *targetSpec) patternFor(in *input) *uriPattern {
	var best *uriPattern
	for i := range s.patterns {
		p := &s.patterns[i]
		if p.suppliedBy(in) && (best == nil || len(p.vars) > len(best.vars)) {
			best = p
		}
	}
	return best
}

// suppliedBy reports whether the call supplies every variable.
func (p *uriPattern) suppliedBy(in *input) bool {
	for _, f := range p.vars {
		if !uriField(in, f) {
			return false
		}
	}
	return true
}
