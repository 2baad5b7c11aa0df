// SPDX-License-Identifier: Apache-2.0

package readtool

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
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
	// query is the typed query the target's reader validated (nil for a
	// target without query rules).
	query any
	// extraQuery is a query part the call's fields add to the output URI
	// (the wiki's prefix field).
	extraQuery string
	// pattern is the row's dagu:// pattern the read is addressed by (nil
	// when the read has no URI).
	pattern *uriPattern
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
	// details.fields even for one field, as Dagu's own server answers (its
	// conformance suite requires it).
	e = e.withDetail("fields", mixed)
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
		return nil, unsupportedTarget(supplied, targetOrder)
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
		if c.pattern = spec.patternFor(in); c.pattern != nil {
			c.uri = model.WithQuery(c.pattern.build(in.get), c.rawQuery())
		}
	}
	return c, nil
}

// unsupportedTarget answers a target that is not one of the contract's:
// the close ones among targets as a did-you-mean, or else all of them.
func unsupportedTarget(supplied string, targets []string) *Error {
	msg := fmt.Sprintf("Unsupported read target %q. ", supplied)
	close := suggest(supplied, targets, maxSuggestions)
	if len(close) > 0 {
		msg += "Did you mean " + quoteList(close) + "?"
	} else {
		msg += "The targets are " + strings.Join(targets, ", ") + "."
	}
	e := newError(CodeUnsupportedReadTarget, msg).withField(fTarget)
	if len(close) > 0 {
		e = e.withDetail("didYouMean", close)
	}
	e.Target = supplied
	return e
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
	return spec.reader.prepare(c, raw)
}

// mergeWikiPrefix reconciles the prefix field with a prefix query
// parameter: both may be given only when they agree. The effective prefix
// ends up in both the query and the prefix field (which the envelope
// echoes); a field-only prefix is added to the output URI's query.
func mergeWikiPrefix(c *call, q *model.WikiListQuery) *Error {
	field := c.in.get(fPrefix)
	switch {
	case field == "":
		if q.Prefix != "" {
			c.in.values[fPrefix] = q.Prefix
		}
	case q.Prefix == "":
		q.Prefix = field
		c.extraQuery = "prefix=" + url.QueryEscape(field)
	case q.Prefix != field:
		return newError(CodeInvalidToolInput,
			"The prefix field and the prefix query parameter disagree; supply one of them.").withField(fPrefix)
	}
	return nil
}

// logQuery is the validated window of a log read (run_logs, step_log);
// the zero window for any other target.
func (c *call) logQuery() model.LogQuery {
	q, _ := c.query.(model.LogQuery)
	return q
}

// rawQuery is the query string the output URI carries.
func (c *call) rawQuery() string {
	q := c.in.get(fQuery)
	switch {
	case c.extraQuery == "":
		return q
	case q == "":
		return c.extraQuery
	}
	return q + "&" + c.extraQuery
}
