// SPDX-License-Identifier: Apache-2.0

package model

import (
	"net/url"
	"testing"
)

func TestURIBuilders(t *testing.T) {
	t.Parallel()
	tests := []struct{ got, want string }{
		{ReferenceURI("read-tool"), "dagu://reference/read-tool"},
		{DAGSpecURI("mcp.read-contract"), "dagu://dags/mcp.read-contract/spec"},
		{DAGSpecURI("a b/c?d#e%"), "dagu://dags/a%20b%2Fc%3Fd%23e%25/spec"},
		{WikiURI(""), "dagu://wiki"},
		{WikiURI("all"), "dagu://wiki"},
		{WikiURI("ops"), "dagu://wiki/ops"},
		{WikiPageURI("ops", "oncall/handbook"), "dagu://wiki/ops/oncall%2Fhandbook"},
		{RunURI("n", "r", ""), "dagu://runs/n/r"},
		{RunURI("n", "r", "s"), "dagu://runs/n/r/sub/s"},
		{RunLogsURI("n", "r"), "dagu://runs/n/r/logs"},
		{StepLogURI("n", "r", "", "a b"), "dagu://runs/n/r/steps/a%20b/logs"},
		{StepLogURI("n", "r", "s", "x"), "dagu://runs/n/r/sub/s/steps/x/logs"},
		{ForeachItemsURI("n", "r", "s", "each"), "dagu://runs/n/r/sub/s/steps/each/foreach"},
		{ForeachItemURI("n", "r", "", "each", "1.inner.0"), "dagu://runs/n/r/steps/each/foreach/1.inner.0"},
		{ForeachStepLogURI("n", "r", "", "each", "0", "load"), "dagu://runs/n/r/steps/each/foreach/0/steps/load/logs"},
		{ReferenceURI("ü"), "dagu://reference/%C3%BC"},
		{WithQuery(RunsURI(), "status=2"), "dagu://runs?status=2"},
		{WithQuery(DAGsURI(), ""), "dagu://dags"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
}

// FuzzNeedsEscape keeps the fast path in step with url.PathEscape.
func FuzzNeedsEscape(f *testing.F) {
	for _, s := range []string{"abc", "a b", "a/b", "$&+:=@", "~._-", "ü", "%"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := needsEscape(s), url.PathEscape(s) != s; got != want {
			t.Fatalf("needsEscape(%q) = %v, PathEscape changes it: %v", s, got, want)
		}
	})
}

func BenchmarkRunURI(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		_ = StepLogURI("nightly_report", "0356UUn8VwcWFuh5L8qwbp", "", "export")
	}
}
