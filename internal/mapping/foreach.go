// SPDX-License-Identifier: Apache-2.0

package mapping

import (
	"strconv"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
)

// Sources of foreach data, as model.ForeachItems.Source reports them.
const (
	sourceRoute     = "foreach-route"
	sourceAggregate = "aggregate"
)

// Foreach status buckets: the values of the `status` query parameter.
const (
	bucketNotStarted = "not_started"
	bucketRunning    = "running"
	bucketSucceeded  = "succeeded"
	bucketFailed     = "failed"
	bucketAborted    = "aborted"
)

// Paging defaults of foreach item lists.
const (
	defaultForeachPage    = 1
	defaultForeachPerPage = 50
)

// Step status numbers the foreach buckets group.
const (
	nodeNotStarted = 0
	nodeRunning    = 1
	nodeFailed     = 2
	nodeAborted    = 3
	nodeSucceeded  = 4
	nodeRetrying   = 9
)

// bucketOf sorts a step status number into its foreach bucket: running
// includes retrying, and every status without a bucket of its own counts
// as not started.
func bucketOf(status int) string {
	switch status {
	case nodeSucceeded:
		return bucketSucceeded
	case nodeFailed:
		return bucketFailed
	case nodeAborted:
		return bucketAborted
	case nodeRunning, nodeRetrying:
		return bucketRunning
	}
	return bucketNotStarted
}

// sortGroup ranks a status for listing: failed and aborted first, then
// running, then the rest.
func sortGroup(status int) int {
	switch bucketOf(status) {
	case bucketFailed, bucketAborted:
		return 0
	case bucketRunning:
		return 1
	}
	return 2
}

// count adds one item with the given status to its bucket's tally.
func count(c *model.ForeachCounts, status int) {
	switch bucketOf(status) {
	case bucketSucceeded:
		c.Succeeded++
	case bucketFailed:
		c.Failed++
	case bucketAborted:
		c.Aborted++
	case bucketRunning:
		c.Running++
	default:
		c.NotStarted++
	}
}

// bucketCount is the number of items in one bucket; an unknown bucket
// holds none.
func bucketCount(c model.ForeachCounts, bucket string) int {
	switch bucket {
	case bucketNotStarted:
		return c.NotStarted
	case bucketRunning:
		return c.Running
	case bucketSucceeded:
		return c.Succeeded
	case bucketFailed:
		return c.Failed
	case bucketAborted:
		return c.Aborted
	}
	return 0
}

// pageOf applies the paging defaults (page 1, 50 per page) to a query.
func pageOf(q model.ForeachQuery) (page, perPage int) {
	page, perPage = q.Page, q.PerPage
	if page < 1 {
		page = defaultForeachPage
	}
	if perPage < 1 {
		perPage = defaultForeachPerPage
	}
	return page, perPage
}

// itemPath is the path of a top-level item: its decimal index.
func itemPath(index int) string { return strconv.Itoa(index) }
