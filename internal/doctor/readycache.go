// SPDX-License-Identifier: Apache-2.0

package doctor

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/restclient"
)

// readyCacheTTL is how long one readiness probe answers /readyz.
const readyCacheTTL = 5 * time.Second

// readyCache holds the last readiness probe. Concurrent /readyz requests wait
// for one probe instead of each calling Dagu.
type readyCache struct {
	mu   sync.Mutex
	at   time.Time
	last restclient.ProbeResult
	log  *slog.Logger
	now  func() time.Time
}

// probe returns the cached result, or runs probe when it is older than
// readyCacheTTL. A failure's detail is logged once per probe.
func (c *readyCache) probe(ctx context.Context, probe func(context.Context) restclient.ProbeResult) restclient.ProbeResult {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := time.Now
	if c.now != nil {
		now = c.now
	}
	if !c.at.IsZero() && now().Sub(c.at) < readyCacheTTL {
		return c.last
	}
	c.last, c.at = probe(ctx), now()
	if !c.last.OK && c.log != nil {
		c.log.WarnContext(ctx, "not ready", "reason", c.last.Reason, "detail", c.last.Detail)
	}
	return c.last
}
