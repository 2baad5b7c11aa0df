// SPDX-License-Identifier: Apache-2.0

package portcache

import (
	"context"
	"errors"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
	"github.com/dagu-mcp-gateway/gateway/internal/readcache"
	"github.com/dagu-mcp-gateway/gateway/internal/readtool"
)

// Layer is the cache around the read tool's ports. Reads it caches walk
// down once: the local cache, then the shared level, then the inner port;
// every other read goes straight to the inner port. It is safe for
// concurrent use.
type Layer struct {
	readtool.Upstream // the inner port: every read the layer does not cache
	dags              *readcache.DAGs
}

// New builds the layer around inner; o configures its DAG caches.
func New(inner readtool.Upstream, o readcache.DAGsOptions) (*Layer, error) {
	if inner == nil {
		return nil, errors.New("port cache: the inner port is required")
	}
	dags, err := readcache.NewDAGs(o)
	if err != nil {
		return nil, err
	}
	return &Layer{Upstream: inner, dags: dags}, nil
}

// WaitRefreshes waits for the background refreshes the layer started.
func (l *Layer) WaitRefreshes() { l.dags.WaitRefreshes() }

// GetDAGSpec answers from the spec cache, the shared level, then the inner
// port, as a copy the caller owns.
func (l *Layer) GetDAGSpec(ctx context.Context, name string) (*model.DAGSpec, error) {
	return l.dags.Spec(ctx, name, l.Upstream.GetDAGSpec)
}

// DAGNames answers from the name cache, the shared level, then the inner
// port, as a slice the caller owns; an expired list may answer while it
// is read again in the background (readcache.DAGs.Names).
func (l *Layer) DAGNames(ctx context.Context) ([]string, error) {
	return l.dags.Names(ctx, l.Upstream.DAGNames)
}
