// SPDX-License-Identifier: Apache-2.0

package readcache

import (
	"context"

	"github.com/dagu-mcp-gateway/gateway/internal/restclient"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient/gen"
)

// RunSource reads the parts of a run the run cache may keep. Package
// upstream's REST reads are one; Runs is the cache around one. Which REST
// route reads a part (root run, sub-run, foreach body step) is decided by
// restclient (RunRoutes, StepLogRoute).
type RunSource interface {
	// Details reads the details of the run t names, root or sub-run.
	Details(ctx context.Context, t RunTarget) (*gen.DAGRunDetails, error)
	// Latest reads a DAG's most recent run.
	Latest(ctx context.Context, name string) (*gen.DAGRunDetails, error)
	// StepLog reads one window of each stream of a step, concurrently,
	// keeping each outcome. t holds what this read knows of the run; a
	// source may return it with more (details it read alongside).
	StepLog(ctx context.Context, t RunTarget, step restclient.StepRef, streams []gen.LogStream, w restclient.LogWindow) (RunTarget, []StreamRead)
}

// RunTarget is a run address whose root run ID is concrete, with what one
// read already knows of the run. Root and Fetched are a read's memo, not
// a cache: they live as long as the read and save it asking twice for
// details it has.
type RunTarget struct {
	Ref restclient.RunRef
	// Root holds the root run's details when the read has them (read
	// while resolving "latest", or cached); nil otherwise.
	Root *gen.DAGRunDetails
	// Fetched and FetchErr hold the outcome of a read of the target run's
	// own details made alongside other calls; both nil when none was
	// made. A root run's details also go to Root.
	Fetched  *gen.DAGRunDetails
	FetchErr error
}

// StreamRead is the outcome of reading one stream of a step log: its
// window, or the failure.
type StreamRead struct {
	Stream gen.LogStream
	Log    *gen.Log
	Err    error
}
