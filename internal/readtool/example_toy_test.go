// SPDX-License-Identifier: Apache-2.0

package readtool

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
)

// toyHealthRow is the row docs/architecture.md's "Adding a target" recipe
// adds for a toy health target. Its handler stands in for
// (*Tool).readHealth, which would call a GetHealth port method.
var toyHealthRow = targetSpec{
	name: "health", support: "served", summary: "Dagu's health and version",
	reader: plain(func(*Tool, context.Context, *call) (any, error) {
		return &model.ReferenceCollection{}, nil
	}),
	patterns:        []uriPattern{at("health", link("health", mimeJSON, "Dagu health"), "Dagu's health and version.")},
	noQuery:         "Health resources do not support query parameters.",
	uriInTargetMode: true, singular: true,
	example:  `{"target":"health"}`,
	describe: "health",
}

// Example_addingATarget walks through the recipe: one row (with its
// handler, port method and REST slice elsewhere) gives the description's
// target entry and URIs line, the URI family and its error texts, the
// resource template, the support rule doctor and /readyz print, and the
// README and read-tool.md rows that go generate writes.
func Example_addingATarget() {
	// The toy row goes last, in place of a real row of the same name.
	rows := slices.DeleteFunc(slices.Clone(targetTable), func(s targetSpec) bool { return s.name == toyHealthRow.name })
	rows = append(rows, toyHealthRow)
	lastLine := func(text string) string {
		lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
		return lines[len(lines)-1]
	}
	fmt.Println("description:", lastLine(targetList(rows, nil)))
	fmt.Println("URIs:", uriEntries(rows))
	_, families := indexPatterns(rows)
	fmt.Printf(unsupportedFamilyOf(families)+"\n", "queues")
	fmt.Println("family noun:", nounsOf(rows)["health"])
	t := resourceTemplates(rows)
	last := t[len(t)-1]
	fmt.Println("template:", last.URITemplate, last.Name, last.MIMEType, last.Description)
	rules := targetRules(rows)
	fmt.Println("support:", rules[len(rules)-1])
	fmt.Println("README:", lastLine(targetTableMarkdown(rows)))
	for _, line := range strings.Split(uriTableMarkdown(rows), "\n") {
		if strings.Contains(line, "`health`") {
			fmt.Println("read-tool.md:", line)
		}
	}
	// Output:
	// description: - health
	// URIs: dagu://reference[/{topic}], dagu://dags, dagu://dags/{name}/spec, dagu://wiki[/{workspace}[/{path}]], dagu://runs, dagu://runs/{name}/{dagRunId}[/logs], .../steps/{stepName}/logs, .../steps/{stepName}/foreach[/{item}[/steps/{bodyStepName}/logs]], dagu://health, and the same run forms under dagu://runs/{name}/{dagRunId}/sub/{subRunId}
	// Unsupported resource family "queues"; dagu_read reads reference, dags, wiki, runs and health.
	// family noun: health
	// template: dagu://health health application/json Dagu's health and version.
	// support: {health served}
	// README: | `health` | | | Dagu's health and version |
	// read-tool.md: | `dagu://health` | `health` |
}
