// SPDX-License-Identifier: Apache-2.0

package cache

import (
	"testing"
	"unsafe"
)

type sizeLeaf struct {
	Name string
	N    int
}

type sizeTree struct {
	Label  *string
	Leaves []sizeLeaf
	Tags   map[string]string
	Any    any
}

func TestApproxSize(t *testing.T) {
	t.Parallel()
	label := "abcd"
	leaf := int64(unsafe.Sizeof(sizeLeaf{}))
	tree := int64(unsafe.Sizeof(sizeTree{}))
	str := int64(unsafe.Sizeof(""))
	word := int64(unsafe.Sizeof(uintptr(0)))
	tests := []struct {
		name string
		v    any
		want int64
	}{
		{"nil", nil, 0},
		{"int", 7, word},
		{"string", "hello", str + 5},
		{"byte slice by capacity", make([]byte, 3, 10), int64(unsafe.Sizeof([]byte{})) + 10},
		{"pointer to struct", &sizeLeaf{Name: "xy"}, word + leaf + 2},
		{"empty tree", sizeTree{}, tree},
		{"tree", sizeTree{
			Label:  &label,
			Leaves: []sizeLeaf{{Name: "a"}, {Name: "bc"}},
			Tags:   map[string]string{"k": "vv"},
			Any:    "zzz",
		}, tree + (str + 4) + (2*leaf + 3) + (2*str + mapEntryOverhead + 3) + (str + 3)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ApproxSize(tt.v); got != tt.want {
				t.Errorf("ApproxSize = %d, want %d", got, tt.want)
			}
		})
	}
}

type sizeCycle struct{ Next *sizeCycle }

func TestApproxSizeStopsOnACycle(t *testing.T) {
	t.Parallel()
	c := &sizeCycle{}
	c.Next = c
	if got := ApproxSize(c); got <= 0 || got > int64(unsafe.Sizeof(c))*(maxSizeDepth+2) {
		t.Fatalf("ApproxSize of a cycle = %d", got)
	}
}
