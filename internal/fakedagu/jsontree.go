// SPDX-License-Identifier: Apache-2.0

package fakedagu

import (
	"encoding/json"
	"fmt"
)

// obj and arr are the decoded forms of JSON objects and arrays. Recorded
// documents stay in this generic form so that every quirk of the recording
// (null versus [] versus an omitted key) survives untouched.
type (
	obj = map[string]any
	arr = []any
)

// decodeJSON decodes raw JSON into the generic form, keeping numbers exact.
func decodeJSON(raw []byte) (any, error) {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, err
	}
	return v, nil
}

// deepCopy returns a copy of a generic JSON value that shares no maps or
// slices with the original.
func deepCopy(v any) any {
	return transformStrings(v, nil)
}

// transformStrings deep-copies v, passing every string value (not keys)
// through f when f is non-nil.
func transformStrings(v any, f func(string) string) any {
	switch t := v.(type) {
	case obj:
		out := make(obj, len(t))
		for k, e := range t {
			out[k] = transformStrings(e, f)
		}
		return out
	case arr:
		out := make(arr, len(t))
		for i, e := range t {
			out[i] = transformStrings(e, f)
		}
		return out
	case string:
		if f == nil {
			return t
		}
		return f(t)
	default:
		return t
	}
}

// walkStrings calls f for every string value inside v.
func walkStrings(v any, f func(string)) {
	switch t := v.(type) {
	case obj:
		for _, e := range t {
			walkStrings(e, f)
		}
	case arr:
		for _, e := range t {
			walkStrings(e, f)
		}
	case string:
		f(t)
	}
}

// getObj returns v[key] as an object, or nil.
func getObj(v obj, key string) obj {
	o, _ := v[key].(obj)
	return o
}

// getArr returns v[key] as an array, or nil.
func getArr(v obj, key string) arr {
	a, _ := v[key].(arr)
	return a
}

// getStr returns v[key] as a string, or "".
func getStr(v obj, key string) string {
	s, _ := v[key].(string)
	return s
}

// getInt returns v[key] as an int, or 0.
func getInt(v obj, key string) int {
	switch n := v[key].(type) {
	case float64:
		return int(n)
	case int:
		return n
	case json.Number:
		i, _ := n.Int64()
		return int(i)
	}
	return 0
}

// getStrings returns v[key] as a string slice; null or absent gives nil.
func getStrings(v obj, key string) []string {
	var out []string
	for _, e := range getArr(v, key) {
		if s, ok := e.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// withoutKeys returns a shallow copy of v without the named keys.
func withoutKeys(v obj, keys ...string) obj {
	out := make(obj, len(v))
	for k, e := range v {
		out[k] = e
	}
	for _, k := range keys {
		delete(out, k)
	}
	return out
}

// stringsToArr converts a string slice to a generic array ([] when empty).
func stringsToArr(ss []string) arr {
	out := make(arr, 0, len(ss))
	for _, s := range ss {
		out = append(out, s)
	}
	return out
}

// mustObj asserts that a decoded value is an object.
func mustObj(v any, what string) obj {
	o, ok := v.(obj)
	if !ok {
		panic(fmt.Sprintf("fakedagu: %s is not a JSON object", what))
	}
	return o
}
