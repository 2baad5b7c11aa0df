// SPDX-License-Identifier: Apache-2.0

package readtool_test

import (
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/portcache"
	"github.com/dagu-mcp-gateway/gateway/internal/readcache"
	"github.com/dagu-mcp-gateway/gateway/internal/readtool"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient"
	"github.com/dagu-mcp-gateway/gateway/internal/upstream"
)

// cached wraps the adapter in the read cache layer with its default
// settings, as the gateway wires it.
func cached(tb testing.TB, a *upstream.Adapter, c *restclient.Client) readtool.Upstream {
	tb.Helper()
	l, err := portcache.New(a, readcache.DAGsOptions{Fingerprint: c.Fingerprint, Lifetime: a.Lifetime})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(l.WaitRefreshes)
	return l
}
