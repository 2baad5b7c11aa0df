// SPDX-License-Identifier: Apache-2.0

package readtool

import (
	"context"
	"fmt"
	"regexp"
	"unicode/utf8"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
)

// dagFileName is Dagu's rule for DAG file names in /dags routes. A name
// outside it cannot exist, so the gateway answers not-found without asking.
var dagFileName = regexp.MustCompile(`^[a-zA-Z0-9_.-]{1,40}$`)

// maxSuggestInput bounds the names did-you-mean compares: twice the
// longest DAG name Dagu accepts.
const maxSuggestInput = 80

func validDAGFileName(name string) bool {
	return dagFileName.MatchString(name) && name != "." && name != ".."
}

func (t *Tool) readDAG(ctx context.Context, c *call) (any, error) {
	name := c.in.get(fName)
	if !validDAGFileName(name) {
		return nil, t.dagNotFound(ctx, c, nil)
	}
	d, err := t.up.GetDAG(ctx, name)
	if isNotFound(err) {
		return nil, t.dagNotFound(ctx, c, err)
	}
	return d, err
}

func (t *Tool) readDAGSpec(ctx context.Context, c *call) (any, error) {
	name := c.in.get(fName)
	if !validDAGFileName(name) {
		return nil, t.dagNotFound(ctx, c, nil)
	}
	s, err := t.up.GetDAGSpec(ctx, name)
	if isNotFound(err) {
		return nil, t.dagNotFound(ctx, c, err)
	}
	return s, err
}

func isNotFound(err error) bool { return model.IsNotFound(err) }

// dagNotFound builds the resource_not_found error for a DAG name, with up to
// three close existing names in details.didYouMean when any exist.
func (t *Tool) dagNotFound(ctx context.Context, c *call, cause error) *Error {
	name := c.in.get(fName)
	e := newError(CodeResourceNotFound, fmt.Sprintf("DAG %q was not found.", name)).withField(fName).withCause(cause)
	if utf8.RuneCountInString(name) > maxSuggestInput {
		return e // no DAG name is that long: nothing is close
	}
	names, err := t.up.DAGNames(ctx)
	if err != nil {
		t.log.WarnContext(ctx, "listing DAG names for suggestions failed", "err", err)
		return e
	}
	if close := suggest(name, names, maxSuggestions); len(close) > 0 {
		e.Message = fmt.Sprintf("DAG %q was not found. Did you mean %s?", name, quoteList(close))
		e.Details = map[string]any{"didYouMean": close}
	}
	return e
}
