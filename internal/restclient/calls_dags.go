// SPDX-License-Identifier: Apache-2.0

package restclient

import (
	"context"

	"github.com/dagu-mcp-gateway/gateway/internal/restclient/gen"
)

// ListDAGs reads one page of DAG files (GET /dags).
func (c *Client) ListDAGs(ctx context.Context, p gen.ListDAGsParams) (*gen.DAGListResponse, error) {
	res, err := c.api().ListDAGs(ctx, &p)
	return decodeJSON[gen.DAGListResponse](RouteDAGs, res, err)
}

// GetDAG reads one DAG definition and its latest run (GET /dags/{fileName}).
func (c *Client) GetDAG(ctx context.Context, fileName string) (*gen.DAGDetailsResponse, error) {
	if err := checkParams(RouteDAG, fileName); err != nil {
		return nil, err
	}
	res, err := c.api().GetDAG(ctx, fileName)
	return decodeJSON[gen.DAGDetailsResponse](RouteDAG, res, err)
}

// GetDAGSpec reads a DAG's stored YAML (GET /dags/{fileName}/spec).
func (c *Client) GetDAGSpec(ctx context.Context, fileName string) (*gen.DAGSpecResponse, error) {
	if err := checkParams(RouteDAGSpec, fileName); err != nil {
		return nil, err
	}
	res, err := c.api().GetDAGSpec(ctx, fileName)
	return decodeJSON[gen.DAGSpecResponse](RouteDAGSpec, res, err)
}

// SearchDAGs searches DAG sources (GET /search/dags).
func (c *Client) SearchDAGs(ctx context.Context, p gen.SearchDAGsParams) (*gen.DAGSearchFeedResponse, error) {
	res, err := c.api().SearchDAGs(ctx, &p)
	return decodeJSON[gen.DAGSearchFeedResponse](RouteSearchDAGs, res, err)
}

// SearchDAGMatches pages through the snippets of one DAG
// (GET /search/dags/{fileName}/matches).
func (c *Client) SearchDAGMatches(ctx context.Context, fileName string, p gen.SearchDAGMatchesParams) (*gen.SearchMatchesResponse, error) {
	if err := checkParams(RouteSearchDAGMatches, fileName); err != nil {
		return nil, err
	}
	res, err := c.api().SearchDAGMatches(ctx, fileName, &p)
	return decodeJSON[gen.SearchMatchesResponse](RouteSearchDAGMatches, res, err)
}
