// SPDX-License-Identifier: Apache-2.0

package mapping

import (
	"github.com/dagu-mcp-gateway/gateway/internal/model"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient/gen"
)

// DAGSearch maps one page of GET /search/dags. Each result is named by its
// file name, and results and matches are always arrays.
func DAGSearch(resp *gen.DAGSearchFeedResponse) model.DAGSearch {
	if resp == nil {
		return model.DAGSearch{Results: []model.DAGSearchResult{}}
	}
	results := make([]model.DAGSearchResult, len(resp.Results))
	for i := range resp.Results {
		r := &resp.Results[i]
		results[i] = model.DAGSearchResult{
			Name:           r.FileName,
			URI:            model.DAGSpecURI(r.FileName),
			Workspace:      str(r.Workspace),
			Matches:        matches(r.Matches),
			HasMoreMatches: r.HasMoreMatches,
		}
	}
	return model.DAGSearch{
		Results:    results,
		HasMore:    resp.HasMore,
		NextCursor: str(resp.NextCursor),
	}
}

func matches(in []gen.SearchMatchItem) []model.SearchMatch {
	out := make([]model.SearchMatch, len(in))
	for i, m := range in {
		out[i] = model.SearchMatch{Line: m.Line, LineNumber: m.LineNumber, StartLine: m.StartLine}
	}
	return out
}
