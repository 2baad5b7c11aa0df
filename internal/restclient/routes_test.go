// SPDX-License-Identifier: Apache-2.0

package restclient

import (
	"os"
	"regexp"
	"sort"
	"testing"
)

// TestRoutesMatchOpenAPI keeps the guard's allow-list and api/openapi.yaml in
// step: both must name exactly the same route templates.
func TestRoutesMatchOpenAPI(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile("../../api/openapi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	pathLine := regexp.MustCompile(`(?m)^  (/\S*):\s*$`)
	var inSpec []string
	for _, m := range pathLine.FindAllSubmatch(raw, -1) {
		inSpec = append(inSpec, string(m[1]))
	}
	var inTable []string
	for route := range allowedRoutes {
		inTable = append(inTable, route)
	}
	sort.Strings(inSpec)
	sort.Strings(inTable)
	if len(inSpec) == 0 || !equalStrings(inSpec, inTable) {
		t.Fatalf("openapi.yaml paths %v\n!= allowedRoutes %v", inSpec, inTable)
	}
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
