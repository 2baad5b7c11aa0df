// SPDX-License-Identifier: Apache-2.0

package readtool

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// schemaProperties decodes a definition's input schema (raw JSON) and
// returns its properties.
func schemaProperties(t testing.TB, def *mcp.Tool) map[string]any {
	t.Helper()
	raw, ok := def.InputSchema.(json.RawMessage)
	if !ok {
		t.Fatalf("input schema is %T, want encoded JSON", def.InputSchema)
	}
	var schema struct {
		Properties map[string]any `json:"properties"`
	}
	if err := json.Unmarshal(raw, &schema); err != nil {
		t.Fatal(err)
	}
	return schema.Properties
}

// schemaTargetEnum is the input schema's target enum.
func schemaTargetEnum(t testing.TB, def *mcp.Tool) []string {
	t.Helper()
	var enum []string
	for _, v := range schemaProperties(t, def)["target"].(map[string]any)["enum"].([]any) {
		enum = append(enum, v.(string))
	}
	return enum
}

// TestTargetNamesAreTheSchemaEnum: the exported list is the advertised enum.
func TestTargetNamesAreTheSchemaEnum(t *testing.T) {
	t.Parallel()
	if got, want := TargetNames(), schemaTargetEnum(t, Definition()); !slices.Equal(got, want) {
		t.Fatalf("TargetNames() = %v, schema enum %v", got, want)
	}
}
