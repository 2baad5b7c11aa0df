// SPDX-License-Identifier: Apache-2.0

package readtool

import (
	"fmt"
	"net/url"
	"strings"
)

type mode int

const (
	targetMode mode = iota + 1
	uriMode
)

// String names the mode for logs.
func (m mode) String() string {
	switch m {
	case targetMode:
		return "target"
	case uriMode:
		return "uri"
	}
	return ""
}

// call is a validated read request, whichever mode it came in.
type call struct {
	mode   mode
	target string
	// spec is the target's row of the contract table.
	spec *targetSpec
	// in holds the effective field values. In URI mode they are derived
	// from the URI's path segments.
	in *input
	// query holds the validated query parameters (nil when none).
	query url.Values
	// uri is the canonical output URI ("" when the read has none).
	uri string
	// inputURI is the trimmed uri value of a URI-mode request.
	inputURI string
}

// resolve selects the addressing mode and validates the whole request.
func resolve(in *input) (*call, *Error) {
	if in.has(fURI) {
		if err := checkNoTargetFields(in); err != nil {
			return nil, err
		}
		return resolveURI(in.get(fURI))
	}
	if !in.has(fTarget) {
		return nil, missingTarget(in)
	}
	return resolveTarget(in)
}

func checkNoTargetFields(in *input) *Error {
	mixed := in.present(targetModeFields)
	if len(mixed) == 0 {
		return nil
	}
	e := fieldsError(CodeInvalidToolInput,
		"URI mode cannot be combined with target-mode fields ("+strings.Join(mixed, ", ")+").", mixed)
	e.URI = in.get(fURI) // the contract's rule: a non-empty uri was supplied
	return e
}

func missingTarget(in *input) *Error {
	if in.blankTarget || len(in.present(targetModeFields)) > 0 {
		return newError(CodeInvalidToolInput, "The target field is required for target mode.").withField(fTarget)
	}
	return newError(CodeInvalidToolInput, "Either target or uri is required.")
}

// resolveTarget validates a target-mode request against its target's row
// of the contract and builds its canonical URI.
func resolveTarget(in *input) (*call, *Error) {
	supplied := in.get(fTarget)
	spec, ok := lookupTarget(supplied)
	if !ok {
		e := newError(CodeUnsupportedReadTarget, fmt.Sprintf("Unsupported read target %q.", supplied)).withField(fTarget)
		e.Target = supplied
		return nil, e
	}
	c := &call{mode: targetMode, target: spec.name, spec: spec, in: in}
	for _, check := range []func(*call, *targetSpec) *Error{
		checkForbidden, checkRequired, checkFieldValues, checkTargetQuery,
	} {
		if err := check(c, spec); err != nil {
			err.Target = spec.name
			return nil, err
		}
	}
	if spec.hasURI(targetMode) {
		c.uri = spec.uri(c)
	}
	return c, nil
}

func checkForbidden(c *call, spec *targetSpec) *Error {
	var forbidden []string
	for _, f := range c.in.present(targetModeFields) {
		if !spec.allows(f) {
			forbidden = append(forbidden, f)
		}
	}
	if len(forbidden) == 0 {
		return nil
	}
	return fieldsError(CodeInvalidToolInput, fmt.Sprintf("The %s not allowed for target %s.",
		describeFields(forbidden, "is", "are"), c.target), forbidden)
}

func checkRequired(c *call, spec *targetSpec) *Error {
	for field, value := range spec.defaults {
		if !c.in.has(field) {
			c.in.values[field] = value
		}
	}
	var missing []string
	for _, f := range spec.required {
		if !c.in.has(f) {
			missing = append(missing, f)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	return fieldsError(CodeInvalidToolInput, fmt.Sprintf("The %s required for target %s.",
		describeFields(missing, "is", "are"), c.target), missing)
}

// describeFields renders "X field is" or "X, Y fields are".
func describeFields(fields []string, one, many string) string {
	if len(fields) == 1 {
		return fields[0] + " field " + one
	}
	return strings.Join(fields, ", ") + " fields " + many
}

func checkTargetQuery(c *call, spec *targetSpec) *Error {
	raw := c.in.get(fQuery)
	if strings.HasPrefix(raw, "?") {
		return newError(CodeInvalidToolInput, "The query field must not start with ?.").withField(fQuery)
	}
	values, problem := parseQuery(spec, raw)
	if problem != nil {
		return queryError(problem, c)
	}
	c.query = values
	if spec.reconcile != nil {
		return spec.reconcile(c)
	}
	return nil
}

// queryError turns a refused query into the error of the request's mode.
func queryError(p *queryProblem, c *call) *Error {
	var e *Error
	if c.mode == uriMode {
		e = newError(CodeInvalidResourceURI, p.message)
	} else {
		e = newError(CodeInvalidToolInput, p.message).withField(fQuery)
	}
	if p.parameter != "" {
		e = e.withDetails(map[string]any{"parameter": p.parameter})
	}
	return e
}

// mergeWikiPrefix reconciles the prefix field with a prefix query
// parameter: both may be given only when they agree.
func mergeWikiPrefix(c *call) *Error {
	field := c.in.get(fPrefix)
	if field == "" || !c.query.Has("prefix") {
		return nil
	}
	if c.query.Get("prefix") != field {
		return newError(CodeInvalidToolInput,
			"The prefix field and the prefix query parameter disagree; supply one of them.").withField(fPrefix)
	}
	return nil
}

// effectivePrefix is the wiki prefix from the field or the query.
func (c *call) effectivePrefix() string {
	if p := c.in.get(fPrefix); p != "" {
		return p
	}
	return c.query.Get("prefix")
}

// rawQuery is the query string the output URI carries.
func (c *call) rawQuery() string {
	if c.mode == uriMode {
		return c.in.get(fQuery)
	}
	q := c.in.get(fQuery)
	if c.spec.reconcile != nil && c.in.has(fPrefix) && !c.query.Has("prefix") {
		extra := "prefix=" + url.QueryEscape(c.in.get(fPrefix))
		if q == "" {
			return extra
		}
		return q + "&" + extra
	}
	return q
}
