// SPDX-License-Identifier: Apache-2.0

package fakedagu

import (
	"fmt"
	"strconv"
	"strings"
)

// Query parameters are bound like the generated router binds them: a value
// that is not of the declared type, or a repeated single-value parameter, is
// a 400 with a plain-text message; schema limits are not enforced.

// paramBindError is the reason a query parameter failed type binding.
type paramBindError struct{ reason string }

func (e paramBindError) Error() string { return e.reason }

func bindFailure(err error) error {
	return paramBindError{"error binding string parameter: " + err.Error()}
}

// single returns the only value of a parameter.
func (c *call) single(name string) (string, bool, error) {
	values, found := c.query[name]
	if !found {
		return "", false, nil
	}
	if len(values) != 1 {
		return "", true, paramBindError{fmt.Sprintf("multiple values for single value parameter '%s'", name)}
	}
	return values[0], true, nil
}

// intParam binds an optional integer parameter; ok is false when an error
// answer has been written.
func (c *call) intParam(name string) (value int, present, ok bool) {
	raw, present, err := c.single(name)
	if err == nil && present {
		var n int64
		n, err = strconv.ParseInt(raw, 10, 64)
		if err != nil {
			err = bindFailure(err)
		}
		value = int(n)
	}
	if err != nil {
		c.paramError(name, err)
		return 0, present, false
	}
	return value, present, true
}

// pageParams binds the page and perPage of a paged list as Dagu reads
// them: pages count from 1, and perPage is perPageDefault when absent or
// not positive, at most perPageMax.
func (c *call) pageParams(perPageDefault, perPageMax int) (page, perPage int, ok bool) {
	if page, _, ok = c.intParam("page"); !ok {
		return 0, 0, false
	}
	if perPage, _, ok = c.intParam("perPage"); !ok {
		return 0, 0, false
	}
	if perPage <= 0 {
		perPage = perPageDefault
	}
	return max(page, 1), min(perPage, perPageMax), true
}

// int64Param binds an optional 64-bit integer parameter.
func (c *call) int64Param(name string) (value int64, present, ok bool) {
	raw, present, err := c.single(name)
	if err == nil && present {
		value, err = strconv.ParseInt(raw, 10, 64)
		if err != nil {
			err = bindFailure(err)
		}
	}
	if err != nil {
		c.paramError(name, err)
		return 0, present, false
	}
	return value, present, true
}

// boolParam binds an optional boolean parameter.
func (c *call) boolParam(name string) (value, ok bool) {
	raw, present, err := c.single(name)
	if err == nil && present {
		value, err = strconv.ParseBool(raw)
		if err != nil {
			err = bindFailure(err)
		}
	}
	if err != nil {
		c.paramError(name, err)
		return false, false
	}
	return value, true
}

// stringParam returns an optional string parameter.
func (c *call) stringParam(name string) (value string, ok bool) {
	raw, _, err := c.single(name)
	if err != nil {
		c.paramError(name, err)
		return "", false
	}
	return raw, true
}

// intListParam binds a repeated integer parameter (status=2&status=3).
func (c *call) intListParam(name string) ([]int, bool) {
	var out []int
	for _, raw := range c.query[name] {
		n, err := strconv.ParseInt(raw, 10, 64)
		if err != nil {
			c.paramError(name, paramBindError{"error setting array element: " + bindFailure(err).Error()})
			return nil, false
		}
		out = append(out, int(n))
	}
	return out, true
}

// windowParams binds the log window parameters head, tail, offset, limit.
func (c *call) windowParams() (windowRequest, bool) {
	var req windowRequest
	targets := []struct {
		name string
		dst  *int
	}{{"head", &req.Head}, {"tail", &req.Tail}, {"offset", &req.Offset}, {"limit", &req.Limit}}
	for _, t := range targets {
		v, _, ok := c.intParam(t.name)
		if !ok {
			return req, false
		}
		*t.dst = v
	}
	return req, true
}

// labelsParam reads the labels filter and its deprecated alias tags;
// sending both is a handler-level 400.
func (c *call) labelsParam() ([]string, bool) {
	labels, ok := c.stringParam("labels")
	if !ok {
		return nil, false
	}
	tags, ok := c.stringParam("tags")
	if !ok {
		return nil, false
	}
	if labels != "" && tags != "" {
		c.badRequest("labels and tags cannot be used together; use labels")
		return nil, false
	}
	if labels == "" {
		labels = tags
	}
	return normalizeLabels(labels), true
}

// labelFilter reads a list's label filter the way the release names it;
// releases without one ignore every label parameter.
func (c *call) labelFilter(kind labelParam) ([]string, bool) {
	switch kind {
	case labelsOrTags:
		return c.labelsParam()
	case tagsOnly:
		raw, ok := c.stringParam("tags")
		return normalizeLabels(raw), ok
	case tagOnly:
		return c.tagParam()
	}
	return nil, true
}

// tagParam reads 1.x's tag filter: one label, matched whole and ignoring
// case (1.x compares it with strings.EqualFold against labels it stores
// lower-cased), neither trimmed nor split at commas; empty is no filter.
func (c *call) tagParam() ([]string, bool) {
	raw, ok := c.stringParam("tag")
	if !ok || raw == "" {
		return nil, ok
	}
	return []string{strings.ToLower(raw)}, true
}

// requiredString returns a required string parameter; a missing one is the
// generated router's plain-text 400.
func (c *call) requiredString(name string) (string, bool) {
	raw, present, err := c.single(name)
	switch {
	case err != nil:
		c.paramError(name, err)
		return "", false
	case !present:
		c.requiredParamError(name)
		return "", false
	}
	return raw, true
}

// trimmedQuery returns the trimmed search query q: missing is the router's
// plain-text 400, blank the handler's JSON 400.
func (c *call) trimmedQuery() (string, bool) {
	q, ok := c.requiredString("q")
	if !ok {
		return "", false
	}
	q = strings.TrimSpace(q)
	if q == "" {
		c.badRequest("query parameter 'q' is required")
		return "", false
	}
	return q, true
}
