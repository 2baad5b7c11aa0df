// SPDX-License-Identifier: Apache-2.0

package readtool_test

import (
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/readtool"
)

// TestDefinitionSnapshot pins what every client sees of the tool (name,
// description, input schema, annotations): a change to it is a reviewed
// diff of testdata/definition.json (refresh with -update).
func TestDefinitionSnapshot(t *testing.T) {
	t.Parallel()
	snapshot(t, "definition.json", "tool definition", readtool.Definition())
}
