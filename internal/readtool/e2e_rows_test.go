// SPDX-License-Identifier: Apache-2.0

package readtool_test

import (
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
	"github.com/dagu-mcp-gateway/gateway/internal/readtool"
)

// TestRowExamples reads each row's example end to end and compares the
// answer with its golden, so a new row gets its golden from -update.
func TestRowExamples(t *testing.T) {
	t.Parallel()
	var cases []goldenCase
	for _, ex := range readtool.RowExamples() {
		cases = append(cases, goldenCase{name: ex.Golden, args: ex.Args, calls: -1})
	}
	runGoldenCases(t, fakedagu.Options{RecordedOnly: true, Foreach: fakedagu.ForeachRoutes}, cases)
}
