// SPDX-License-Identifier: Apache-2.0

package redact

import "testing"

func TestURL(t *testing.T) {
	t.Parallel()
	cases := map[string]string{
		"":                             "",
		"redis://:hunter2@db:6379/0":   "redis://:xxxxx@db:6379/0",
		"rediss://app:hunter2@db:6380": "rediss://app:xxxxx@db:6380",
		"redis://db:6379":              "redis://db:6379",
		"redis://db:6379/0?protocol=2": "redis://db:6379/0?protocol=2",
		"://not a url":                 "(unparseable URL)",
		"redis://:hunter2@db:6379/%zz": "(unparseable URL)",
	}
	for in, want := range cases {
		if got := URL(in); got != want {
			t.Errorf("URL(%q) = %q, want %q", in, got, want)
		}
	}
}
