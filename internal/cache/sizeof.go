// SPDX-License-Identifier: Apache-2.0

package cache

import "reflect"

// maxSizeDepth bounds how deep ApproxSize follows references, so a value
// with a cycle cannot make it loop; what lies deeper is not counted.
const maxSizeDepth = 32

// mapEntryOverhead approximates the bookkeeping a Go map spends per entry
// beyond the key and value themselves.
const mapEntryOverhead = 16

// ApproxSize estimates the bytes of memory a value holds: its own size plus
// everything it references through pointers, strings, slices (by
// capacity), maps and interfaces. It is meant as a Options.SizeOf for
// trees of plain data such as decoded JSON answers; shared references are
// counted once per reference, so the estimate errs on the high side.
func ApproxSize(v any) int64 {
	if v == nil {
		return 0
	}
	rv := reflect.ValueOf(v)
	return int64(rv.Type().Size()) + referenced(rv, 0)
}

// referenced is the memory v reaches beyond its own inline size.
func referenced(v reflect.Value, depth int) int64 {
	if depth > maxSizeDepth {
		return 0
	}
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return 0
		}
		return int64(v.Type().Elem().Size()) + referenced(v.Elem(), depth+1)
	case reflect.Interface:
		if v.IsNil() {
			return 0
		}
		return int64(v.Elem().Type().Size()) + referenced(v.Elem(), depth+1)
	case reflect.String:
		return int64(v.Len())
	case reflect.Slice:
		return sliceSize(v, depth)
	case reflect.Array:
		return elementsSize(v, depth)
	case reflect.Map:
		return mapSize(v, depth)
	case reflect.Struct:
		var n int64
		for i := range v.NumField() {
			n += referenced(v.Field(i), depth+1)
		}
		return n
	}
	return 0
}

// sliceSize is a slice's backing array (by capacity) and what its elements
// reference.
func sliceSize(v reflect.Value, depth int) int64 {
	if v.IsNil() {
		return 0
	}
	return int64(v.Cap())*int64(v.Type().Elem().Size()) + elementsSize(v, depth)
}

// elementsSize is what the elements of a slice or array reference.
func elementsSize(v reflect.Value, depth int) int64 {
	if !holdsReferences(v.Type().Elem()) {
		return 0
	}
	var n int64
	for i := range v.Len() {
		n += referenced(v.Index(i), depth+1)
	}
	return n
}

// mapSize is a map's entries with their overhead and what they reference.
func mapSize(v reflect.Value, depth int) int64 {
	if v.IsNil() {
		return 0
	}
	t := v.Type()
	n := int64(v.Len()) * (int64(t.Key().Size()) + int64(t.Elem().Size()) + mapEntryOverhead)
	it := v.MapRange()
	for it.Next() {
		n += referenced(it.Key(), depth+1) + referenced(it.Value(), depth+1)
	}
	return n
}

// holdsReferences reports whether values of t can reference memory beyond
// their inline size, so plain numbers are never visited one by one.
func holdsReferences(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Pointer, reflect.Interface, reflect.String, reflect.Slice, reflect.Map:
		return true
	case reflect.Array:
		return holdsReferences(t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			if holdsReferences(t.Field(i).Type) {
				return true
			}
		}
	}
	return false
}
