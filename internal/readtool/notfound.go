// SPDX-License-Identifier: Apache-2.0

package readtool

import (
	"fmt"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
)

// defaultNotFoundField names the input whose lookup failed when the
// upstream did not say: the most specific identifier of the target.
func defaultNotFoundField(c *call) string {
	if c.spec.notFound == nil {
		return ""
	}
	return c.spec.notFound(c)
}

// notFoundMessage tells the agent which of its values named nothing.
func notFoundMessage(c *call, field string) string {
	in := c.in
	name, id := in.get(fName), in.get(fDAGRunID)
	switch field {
	case fName:
		if c.target == tReference {
			return fmt.Sprintf("Reference topic %q was not found.", name)
		}
		if id != "" {
			return fmt.Sprintf("DAG %q has no DAG-run %q.", name, id)
		}
		return fmt.Sprintf("DAG %q was not found.", name)
	case fDAGRunID:
		if id == model.LatestRun {
			return fmt.Sprintf("DAG %q has no DAG-runs.", name)
		}
		return fmt.Sprintf("DAG-run %q of DAG %q was not found.", id, name)
	case fSubRunID:
		return subRunNotFoundMessage(in.get(fSubRunID), id, name)
	case fStepName:
		return fmt.Sprintf("Step %q was not found in DAG-run %q of DAG %q.", in.get(fStepName), id, name)
	case fItem:
		return fmt.Sprintf("Item %q of foreach step %q was not found.", in.get(fItem), in.get(fStepName))
	case fBodyStepName:
		return fmt.Sprintf("Body step %q was not found in item %q of foreach step %q.", in.get(fBodyStepName), in.get(fItem), in.get(fStepName))
	case fPath:
		return fmt.Sprintf("Wiki page %q was not found in workspace %q.", in.get(fPath), in.get(fWorkspace))
	case fWorkspace:
		return fmt.Sprintf("Workspace %q was not found or is not visible to the gateway.", in.get(fWorkspace))
	}
	return "The requested resource was not found."
}

// subRunNotFoundMessage names a missing sub-run and the root run it was
// looked for under (its ID, never "latest": see subRunNotFound).
func subRunNotFoundMessage(subRunID, rootID, name string) string {
	return fmt.Sprintf("Sub DAG-run %q was not found under DAG-run %q of DAG %q.", subRunID, rootID, name)
}
