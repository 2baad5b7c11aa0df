// SPDX-License-Identifier: Apache-2.0

package restclient

import (
	"context"
	"net/http"

	"github.com/dagu-mcp-gateway/gateway/internal/restclient/gen"
)

// DetectAPIBase finds where this Dagu serves its REST API, switches every
// later call to it and returns it. A base counts when its /health answers
// JSON, or 401/403 from the API's own authentication (Dagu 1.17 refuses
// /api/v2/health without its token); a 404 or a non-JSON 200 (Dagu 2.x's
// web UI answers every unknown path) rules it out. Transport failures end
// the detection with that error and leave the base unchanged.
func (c *Client) DetectAPIBase(ctx context.Context) (APIBase, error) {
	b, _, err := c.detectAPIBase(ctx)
	return b, err
}

// detectAPIBase also returns the health answer of the chosen base, nil
// when its authentication refused the probe.
func (c *Client) detectAPIBase(ctx context.Context) (APIBase, *gen.HealthResponse, error) {
	for _, b := range apiBases {
		res, err := c.apis[b].GetHealth(ctx)
		health, err := decodeJSON[gen.HealthResponse](RouteHealth, res, err)
		switch {
		case err == nil || isAPIAuthAnswer(err):
			c.SetAPIBase(b)
			return b, health, nil
		case !isNotAnAPI(err):
			return "", nil, err
		}
	}
	return "", nil, &Error{Route: RouteHealth, Status: http.StatusNotFound,
		Excerpt: "no Dagu REST API answers under " + string(APIv2) + " or " + string(APIv1) + " of the configured URL"}
}

// isAPIAuthAnswer reports the API's authentication refusing the request:
// proof that a REST API lives there.
func isAPIAuthAnswer(err error) bool {
	e, ok := AsError(err)
	return ok && (e.Status == http.StatusUnauthorized || e.Status == http.StatusForbidden)
}

// isNotAnAPI reports an answer that rules a base out: any 404, or a 2xx
// that is not JSON.
func isNotAnAPI(err error) bool {
	e, ok := AsError(err)
	return ok && (e.Status == http.StatusNotFound || e.Undecodable)
}
