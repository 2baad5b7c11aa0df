// SPDX-License-Identifier: Apache-2.0

package readtool_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/readtool"
)

// TestDefinitionSnapshot pins what every client sees of the tool (name,
// description, input schema, annotations): a change to it is a reviewed
// diff of testdata/definition.json (refresh with -update).
func TestDefinitionSnapshot(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(readtool.Definition()); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("testdata", "definition.json")
	if *update {
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(want, b.Bytes()) {
		t.Fatalf("the tool definition changed; review and run go test -update\n%s", diffHint(want, b.Bytes()))
	}
}
