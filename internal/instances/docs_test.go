// SPDX-License-Identifier: Apache-2.0

package instances

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestDocsExampleParses: the instances file of docs/instances.md is one
// this parser takes, with the instances it shows.
func TestDocsExampleParses(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(filepath.Join("..", "..", "docs", "instances.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(data), "\n## The instances file\n")
	if !ok {
		t.Fatal(`docs/instances.md has no "The instances file" section`)
	}
	m := regexp.MustCompile("(?s)```yaml\n(.*?)```").FindStringSubmatch(section)
	if m == nil {
		t.Fatal("the section has no YAML block")
	}
	set, err := Parse([]byte(m[1]))
	if err != nil {
		t.Fatalf("docs/instances.md's instances file: %v", err)
	}
	if names := strings.Join(set.Names(), ","); names != "prod,staging" {
		t.Fatalf("docs/instances.md's instances file names %s", names)
	}
}
