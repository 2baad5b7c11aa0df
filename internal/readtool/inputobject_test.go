// SPDX-License-Identifier: Apache-2.0

package readtool

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// hostileArguments is an arguments object with n unknown keys after the
// given known fields.
func hostileArguments(known string, n int) string {
	var b strings.Builder
	b.WriteString("{" + known)
	for i := range n {
		fmt.Fprintf(&b, `,"k%06d":%d`, i, i)
	}
	b.WriteString("}")
	return b.String()
}

// TestUnknownFieldEchoIsBounded: however many unknown keys arrive, and
// however long they are, the error lists a few names and the count.
func TestUnknownFieldEchoIsBounded(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("é", 10_000)
	tests := []struct {
		name       string
		args       string
		wantFields []string
		wantField  string
		wantCount  int // 0: no details.count
	}{
		{"two", `{"target":"dags","b":1,"a":2}`, []string{"a", "b"}, "", 0},
		{"eight", hostileArguments(`"target":"dags"`, 8), names(0, 8), "", 0},
		{"nine", hostileArguments(`"target":"dags"`, 9), names(0, 8), "", 9},
		{"ninety thousand", hostileArguments(`"target":"dags"`, 90_000), names(0, 8), "", 90_000},
		{"one long name", `{"target":"dags","` + long + `":1}`, nil, strings.Repeat("é", maxEchoedNameRune) + "…", 0},
		{"escaped name", `{"target":"dags","a\"b":1}`, nil, `a"b`, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tool, _ := newStubTool(t)
			e := errorOf(t, callJSON(t, tool, tt.args))
			if e.Code != CodeInvalidToolInput || e.Target != "dags" || e.Field != tt.wantField {
				t.Fatalf("error = %+v", e)
			}
			fields, _ := e.Details["fields"].([]string)
			if strings.Join(fields, ",") != strings.Join(tt.wantFields, ",") {
				t.Fatalf("details.fields = %v, want %v", fields, tt.wantFields)
			}
			count, _ := e.Details["count"].(int)
			if count != tt.wantCount {
				t.Fatalf("details.count = %v, want %d", e.Details["count"], tt.wantCount)
			}
			if tt.wantCount > 0 && !strings.Contains(e.Message, fmt.Sprintf("(%d in all)", tt.wantCount)) {
				t.Fatalf("message %q does not give the count", e.Message)
			}
			encoded, _ := json.Marshal(e)
			if len(encoded) > 2<<10 {
				t.Fatalf("error object is %d bytes: %s", len(encoded), encoded)
			}
		})
	}
}

// names are the generated unknown keys from..to-1.
func names(from, to int) []string {
	var out []string
	for i := from; i < to; i++ {
		out = append(out, fmt.Sprintf("k%06d", i))
	}
	return out
}

// TestDecodeArgumentsKeepsOnlyKnownFields: a repeated key keeps its last
// value, as a map would, escaped keys are decoded, values are skipped
// whole whatever they hold, and unknown values are not kept.
func TestDecodeArgumentsKeepsOnlyKnownFields(t *testing.T) {
	t.Parallel()
	tests := []struct {
		raw       string
		ok        bool
		wantKnown int
		wantCount int
		target    string
	}{
		{`{"target":"a","target":"b"}`, true, 1, 0, `"b"`},
		{`{"target":"a","x":{"deep":[1,2,{"y":3}]}}`, true, 1, 1, `"a"`},
		{`{"targ\u0065t":"a"}`, true, 1, 0, `"a"`},
		{` { "x" : { "s" : "}]\"{[" , "t":[1,{"u":"]"}] } , "target" : "a" } `, true, 1, 1, `"a"`},
		{`{"target":-1.5e3,"limit":true,"b":null}`, true, 2, 1, `-1.5e3`},
		{`{}`, true, 0, 0, ""},
		{`{"target":"a"} {}`, false, 0, 0, ""},
		{`{"target":"a"`, false, 0, 0, ""},
		{`{"target":}`, false, 0, 0, ""},
		{`[]`, false, 0, 0, ""},
	}
	for _, tt := range tests {
		known, unknown, ok := decodeArguments([]byte(tt.raw))
		if ok != tt.ok || len(known) != tt.wantKnown || unknown.count != tt.wantCount || string(known[fTarget]) != tt.target {
			t.Errorf("%s: ok=%v known=%v unknown=%d", tt.raw, ok, known, unknown.count)
		}
	}
}
