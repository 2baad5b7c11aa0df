// SPDX-License-Identifier: Apache-2.0

package readtool

import "strings"

// RowExample is one row's example read and the golden its answer is.
type RowExample struct{ Target, Golden, Args string }

// RowExamples lists the rows' example reads, for the golden tests of
// package readtool_test.
func RowExamples() []RowExample {
	var out []RowExample
	for _, spec := range targetTable {
		if spec.example == "" {
			continue
		}
		golden := spec.exampleGolden
		if golden == "" {
			golden = strings.ReplaceAll(spec.name, "_", "-")
		}
		out = append(out, RowExample{Target: spec.name, Golden: golden, Args: spec.example})
	}
	return out
}
