// SPDX-License-Identifier: Apache-2.0

package readtool

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
)

// Input field names, in the order the contract's Input table lists them.
// Short local names of the contract's field constants.
const (
	fTarget       = model.FieldTarget
	fName         = model.FieldName
	fDAGRunID     = model.FieldDAGRunID
	fSubRunID     = model.FieldSubRunID
	fStepName     = model.FieldStepName
	fItem         = model.FieldItem
	fBodyStepName = model.FieldBodyStepName
	fQuery        = model.FieldQuery
	fWorkspace    = model.FieldWorkspace
	fPath         = model.FieldPath
	fPassword     = model.FieldPassword
	fSearch       = model.FieldSearch
	fPrefix       = model.FieldPrefix
	fCursor       = model.FieldCursor
	fLimit        = model.FieldLimit
	fURI          = model.FieldURI
)

// targetModeFields lists every field that belongs to target mode, in the
// contract's order; error details list offending fields in this order.
var targetModeFields = []string{
	fTarget, fName, fDAGRunID, fSubRunID, fStepName, fItem, fBodyStepName,
	fQuery, fWorkspace, fPath, fPassword, fSearch, fPrefix, fCursor, fLimit,
}

var knownFields = func() map[string]bool {
	m := map[string]bool{fURI: true}
	for _, f := range targetModeFields {
		m[f] = true
	}
	return m
}()

// input is the tool input after the contract's type, null, trimming and
// emptiness rules: only fields with an effective value are present.
type input struct {
	values map[string]string // effective string values (password verbatim)
	limit  int
	// hasLimit is true when limit was supplied as an integer.
	hasLimit bool
	// blankTarget is true when target was supplied but is empty after trimming.
	blankTarget bool
}

func (in *input) get(field string) string { return in.values[field] }

// has reports whether the field has an effective value.
func (in *input) has(field string) bool {
	if field == fLimit {
		return in.hasLimit
	}
	_, ok := in.values[field]
	return ok
}

// present lists the supplied fields among candidates, in contract order.
func (in *input) present(candidates []string) []string {
	var out []string
	for _, f := range candidates {
		if in.has(f) {
			out = append(out, f)
		}
	}
	return out
}

// parseInput applies the contract's Input rules to raw tool arguments.
func parseInput(raw json.RawMessage) (*input, *Error) {
	if len(raw) > maxArgumentsBytes {
		return nil, newError(CodeInvalidToolInput, fmt.Sprintf("Tool input is larger than %d MiB.", maxArgumentsBytes>>20))
	}
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		raw = []byte("{}")
	}
	if raw[0] != '{' {
		return nil, newError(CodeInvalidToolInput, "Tool input must be a JSON object.")
	}
	obj, unknown, ok := decodeArguments(raw)
	if !ok {
		return nil, newError(CodeInvalidToolInput, "Tool input must be a JSON object.")
	}
	if unknown.count > 0 {
		return nil, withSuppliedTarget(unknownFieldsError(unknown), obj)
	}
	in := &input{values: make(map[string]string, len(obj))}
	var badType []string
	for _, field := range sortedKeys(obj) {
		if !in.setField(field, obj[field]) {
			badType = append(badType, field)
		}
	}
	if len(badType) > 0 {
		return nil, withSuppliedTarget(typeError(badType), obj)
	}
	if e := checkLimits(in); e != nil {
		return nil, withSuppliedTarget(e, obj)
	}
	return in, nil
}

// withSuppliedTarget names the target on an input error when the request
// carried a valid one: the contract wants `target` once a valid target is
// known, even if another field is at fault.
func withSuppliedTarget(e *Error, obj map[string]json.RawMessage) *Error {
	var supplied string
	if json.Unmarshal(obj[fTarget], &supplied) != nil {
		return e
	}
	supplied = strings.TrimSpace(supplied)
	if spec, ok := lookupTarget(supplied); ok {
		e.Target = spec.name
	}
	return e
}

func typeError(fields []string) *Error {
	describe := func(f string) string {
		if f == fLimit {
			return "Field limit must be an integer."
		}
		return fmt.Sprintf("Field %s must be a string.", f)
	}
	if len(fields) == 1 {
		return newError(CodeInvalidToolInput, describe(fields[0])).withField(fields[0])
	}
	msgs := make([]string, len(fields))
	for i, f := range fields {
		msgs[i] = describe(f)
	}
	return newError(CodeInvalidToolInput, strings.Join(msgs, " ")).
		withDetails(map[string]any{"fields": fields})
}

// setField stores one field's effective value; it reports false when the
// JSON value has the wrong type.
func (in *input) setField(field string, raw json.RawMessage) bool {
	if isJSONNull(raw) {
		return true
	}
	if field == fLimit {
		n, ok := jsonInteger(raw)
		if ok {
			in.limit, in.hasLimit = n, true
		}
		return ok
	}
	var s string
	if raw[0] != '"' || json.Unmarshal(raw, &s) != nil {
		return false
	}
	if field != fPassword {
		s = strings.TrimSpace(s)
		if s == "" && field == fTarget {
			in.blankTarget = true
		}
	}
	if s != "" {
		in.values[field] = s
	}
	return true
}

func isJSONNull(raw json.RawMessage) bool {
	return bytes.Equal(bytes.TrimSpace(raw), []byte("null"))
}

// jsonInteger accepts a JSON number with an integral value that fits an int
// (5 and 5.0 both qualify; 5.5 and "5" do not).
func jsonInteger(raw json.RawMessage) (int, bool) {
	var n json.Number
	if raw[0] == '"' || json.Unmarshal(raw, &n) != nil {
		return 0, false
	}
	if i, err := n.Int64(); err == nil {
		return clampInt(i)
	}
	f, err := n.Float64()
	if err != nil || f != math.Trunc(f) || math.IsInf(f, 0) {
		return 0, false
	}
	return clampInt(int64(max(min(f, math.MaxInt32), math.MinInt32)))
}

// clampInt keeps huge integers integral but out of every allowed range, so
// the range check (not the type check) reports them.
func clampInt(i int64) (int, bool) {
	return int(max(min(i, math.MaxInt32), math.MinInt32)), true
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
