// SPDX-License-Identifier: Apache-2.0

package mapping

import (
	"github.com/dagu-mcp-gateway/gateway/internal/model"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient/gen"
)

// Runs maps one page of GET /dag-runs, keeping Dagu's order (newest
// first). NextCursor is Dagu's cursor as is; the caller may wrap it.
func Runs(resp *gen.DAGRunsPageResponse) model.RunCollection {
	if resp == nil {
		return model.RunCollection{Items: []model.RunItem{}}
	}
	items := make([]model.RunItem, len(resp.DagRuns))
	for i := range resp.DagRuns {
		r := &resp.DagRuns[i]
		items[i] = model.RunItem{
			Name:           r.Name,
			DAGRunID:       r.DagRunId,
			URI:            model.RunURI(r.Name, r.DagRunId, ""),
			Status:         r.Status,
			StatusLabel:    runLabel(r.Status, r.StatusLabel),
			StartedAt:      Time(r.StartedAt),
			FinishedAt:     Time(r.FinishedAt),
			QueuedAt:       timePtr(r.QueuedAt),
			Workspace:      str(r.Workspace),
			Labels:         labelsOr(r.Labels, r.Tags),
			TriggerType:    str(r.TriggerType),
			AutoRetryCount: r.AutoRetryCount,
		}
	}
	return model.RunCollection{Items: items, NextCursor: str(resp.NextCursor)}
}
