// SPDX-License-Identifier: Apache-2.0

package doctor

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/sharedstate"
)

// printSharedState reports the replicas' shared state when one is
// configured: whether it answers and which server and version it is. It is
// optional, so an unreachable one is reported but does not fail doctor,
// and none configured is not mentioned.
func printSharedState(ctx context.Context, w io.Writer, shared *sharedstate.Store) {
	if shared == nil {
		return
	}
	info, err := shared.Probe(ctx)
	if err != nil {
		fmt.Fprintf(w, "Shared state: unreachable at %s (%v); replicas fall back to their own caches and limits\n", shared.URL(), err)
		return
	}
	fmt.Fprintf(w, "Shared state: %s %s at %s, reachable (answered in %s)%s\n", info.Server, info.Version, shared.URL(),
		info.RoundTrip.Round(10*time.Microsecond), sharedMasters(info))
}

// sharedMasters names the masters in use of a Sentinel or cluster URL.
func sharedMasters(info sharedstate.ServerInfo) string {
	switch {
	case info.Topology == sharedstate.Sentinel && len(info.Masters) == 1:
		return "; master in use (named by the sentinels): " + info.Masters[0]
	case info.Topology == sharedstate.Cluster && len(info.Masters) > 0:
		return fmt.Sprintf("; cluster of %d masters: %s", len(info.Masters), strings.Join(info.Masters, ", "))
	}
	return ""
}
