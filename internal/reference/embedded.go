// SPDX-License-Identifier: Apache-2.0

package reference

import (
	"embed"
	"fmt"
)

//go:embed topics/*.md
var embeddedFS embed.FS

// builtinTopics lists the built-in topics in the order Topics reports them.
var builtinTopics = []string{
	"authoring",
	"tools",
	"read-tool",
	"change-tool",
	"execute-tool",
	"notifications",
}

// loadEmbedded reads every built-in topic from the binary.
func loadEmbedded() (map[string]string, error) {
	texts := make(map[string]string, len(builtinTopics))
	for _, name := range builtinTopics {
		data, err := embeddedFS.ReadFile("topics/" + name + ".md")
		if err != nil {
			return nil, fmt.Errorf("reference: built-in topic %q: %w", name, err)
		}
		texts[name] = string(data)
	}
	return texts, nil
}
