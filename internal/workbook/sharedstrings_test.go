// SPDX-License-Identifier: Apache-2.0

package workbook

import (
	"context"
	"reflect"
	"strings"
	"testing"
)

func sharedStringList(t *testing.T, table *sharedStrings) []string {
	t.Helper()
	out := make([]string, table.len())
	for i := range out {
		b, _, ok := table.get(i)
		if !ok {
			t.Fatalf("string %d missing", i)
		}
		out[i] = string(b)
	}
	return out
}

func TestReadSharedStrings(t *testing.T) {
	t.Parallel()
	doc := `<sst count="5"><si><t>plain</t></si>` +
		`<si><r><rPr><b/></rPr><t>rich</t></r><r><t xml:space="preserve"> text</t></r></si>` +
		`<si><t>漢字</t><rPh sb="0" eb="2"><t>かんじ</t></rPh></si>` +
		`<si><t>a_x000D_b_x005F_x000D_</t></si>` +
		`<si/><si><t/></si><si><t>&lt;&amp;&gt;</t></si></sst>`
	table, err := readSharedStrings(context.Background(), strings.NewReader(doc), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"plain", "rich text", "漢字", "a\rb_x000D_", "", "", "<&>"}
	if got := sharedStringList(t, table); !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	if _, _, ok := table.get(len(want)); ok {
		t.Error("index past the end must not resolve")
	}
}

func FuzzReadSharedStrings(f *testing.F) {
	for _, seed := range []string{
		`<sst><si><t>a</t></si><si><r><t>b</t></r></si></sst>`,
		`<si><rPh><t>x</t></rPh></si></rPh><si>`, `<t>_x12`, `<si><t>_xZZZZ_</t>`,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		table, err := readSharedStrings(context.Background(), strings.NewReader(doc), nil)
		if err != nil {
			return
		}
		for i := range table.len() {
			if _, _, ok := table.get(i); !ok {
				t.Fatalf("string %d of %d missing", i, table.len())
			}
		}
	})
}
