// SPDX-License-Identifier: Apache-2.0

package readiness

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/restclient"
)

// CacheTTL is how long one readiness probe answers /readyz.
const CacheTTL = 5 * time.Second

// cache holds the last readiness probe. Concurrent /readyz requests wait
// for one probe instead of each calling Dagu.
type cache struct {
	mu   sync.Mutex
	at   time.Time
	last restclient.ProbeResult
	log  *slog.Logger
	now  func() time.Time
}

// probe returns the cached result, or runs probe when it is older than
// CacheTTL. A failure's detail is logged once per probe.
func (c *cache) probe(ctx context.Context, probe func(context.Context) restclient.ProbeResult) restclient.ProbeResult {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := time.Now
	if c.now != nil {
		now = c.now
	}
	if !c.at.IsZero() && now().Sub(c.at) < CacheTTL {
		return c.last
	}
	c.last, c.at = probe(ctx), now()
	if !c.last.OK && c.log != nil {
		c.log.WarnContext(ctx, "not ready", "reason", c.last.Reason, "detail", c.last.Detail)
	}
	return c.last
}
