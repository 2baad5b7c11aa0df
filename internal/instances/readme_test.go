// SPDX-License-Identifier: Apache-2.0

package instances

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestREADMEExampleParses: the instances file of the README's "Several
// Dagu servers" section is one this parser takes, with the instances it
// shows.
func TestREADMEExampleParses(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(data), "\n## Several Dagu servers\n")
	if !ok {
		t.Fatal(`README.md has no "Several Dagu servers" section`)
	}
	m := regexp.MustCompile("(?s)```yaml\n(.*?)```").FindStringSubmatch(section)
	if m == nil {
		t.Fatal("the section has no YAML block")
	}
	set, err := Parse([]byte(m[1]))
	if err != nil {
		t.Fatalf("the README's instances file: %v", err)
	}
	if names := strings.Join(set.Names(), ","); names != "prod,staging" {
		t.Fatalf("the README's instances file names %s", names)
	}
}
