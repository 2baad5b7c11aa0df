// SPDX-License-Identifier: Apache-2.0

package mapping

import (
	"github.com/dagu-mcp-gateway/gateway/internal/model"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient/gen"
)

// ForeachItems maps one page of the foreach list route newer Dagu servers
// serve (GET …/steps/{stepName}/foreach). Dagu has already filtered,
// sorted and paged the items; they keep its order. q is the query the
// caller sent, and only fills in what the answer lacks: page and perPage
// (defaults 1 and 50) and HasMore. The answer holds no paging counters, so
// HasMore compares page*perPage with the number of items the filter
// matches: total without a status filter, else that bucket's count (never
// fewer than the items this page and the earlier ones hold).
func ForeachItems(list *gen.ForeachItemList, addr RunAddressForURIs, stepName string, q model.ForeachQuery) model.ForeachItems {
	page, perPage := pageOf(q)
	out := model.ForeachItems{
		Items:   []model.ForeachItemSummary{},
		Page:    page,
		PerPage: perPage,
		Source:  sourceRoute,
	}
	if list == nil {
		return out
	}
	out.Total = list.Total
	out.Counts = routeCounts(list.Counts)
	out.Items = make([]model.ForeachItemSummary, len(list.Items))
	for i := range list.Items {
		out.Items[i] = routeSummary(&list.Items[i], addr, stepName)
	}
	matching := list.Total
	if q.Status != "" {
		matching = bucketCount(out.Counts, q.Status)
	}
	matching = max(matching, (page-1)*perPage+len(list.Items))
	out.HasMore = page*perPage < matching
	return out
}

func routeCounts(c gen.ForeachCounts) model.ForeachCounts {
	return model.ForeachCounts{
		NotStarted: num(c.NotStarted),
		Running:    num(c.Running),
		Succeeded:  num(c.Succeeded),
		Failed:     num(c.Failed),
		Aborted:    num(c.Aborted),
	}
}

func routeSummary(it *gen.ForeachItemSummary, addr RunAddressForURIs, stepName string) model.ForeachItemSummary {
	return model.ForeachItemSummary{
		Item:        it.Item,
		Index:       it.Index,
		Key:         it.Key,
		Status:      it.Status,
		StatusLabel: nodeLabel(it.Status, it.StatusLabel),
		Error:       str(it.Error),
		StartedAt:   timePtr(it.StartedAt),
		FinishedAt:  timePtr(it.FinishedAt),
		URI:         model.ForeachItemURI(addr.RootName, addr.RootID, addr.SubRunID, stepName, it.Item),
	}
}

// ForeachItem maps the foreach item route newer Dagu servers serve (GET
// …/steps/{stepName}/foreach/{item}). Body steps come in execution order,
// as for runSteps, each with the URI of its log under the item.
func ForeachItem(it *gen.ForeachItem, addr RunAddressForURIs, stepName string) model.ForeachItem {
	out := model.ForeachItem{Steps: []model.ForeachBodyStep{}, StepsAvailable: true, Source: sourceRoute}
	if it == nil {
		return out
	}
	out.ForeachItemSummary = routeSummary(&gen.ForeachItemSummary{
		Error: it.Error, FinishedAt: it.FinishedAt, Index: it.Index, Item: it.Item, Key: it.Key,
		StartedAt: it.StartedAt, Status: it.Status, StatusLabel: it.StatusLabel,
	}, addr, stepName)
	out.Steps = make([]model.ForeachBodyStep, len(it.Steps))
	for i := range it.Steps {
		out.Steps[i] = bodyStep(&it.Steps[i], addr, stepName, it.Item)
	}
	sortByStart(out.Steps, bodyStepStart)
	return out
}

func bodyStep(s *gen.ForeachBodyStep, addr RunAddressForURIs, stepName, item string) model.ForeachBodyStep {
	return model.ForeachBodyStep{
		Name:          s.Name,
		ID:            str(s.Id),
		Status:        s.Status,
		StatusLabel:   nodeLabel(s.Status, s.StatusLabel),
		HasStdout:     s.HasStdout,
		HasStderr:     s.HasStderr,
		Error:         str(s.Error),
		StartedAt:     timePtr(s.StartedAt),
		FinishedAt:    timePtr(s.FinishedAt),
		RetryCount:    num(s.RetryCount),
		ForeachParent: str(s.ForeachParent),
		LogURI:        model.ForeachStepLogURI(addr.RootName, addr.RootID, addr.SubRunID, stepName, item, s.Name),
		AgentSession:  rawJSON(s.AgentSession),
		ModelUsage:    rawJSON(s.ModelUsage),
	}
}

func bodyStepStart(s *model.ForeachBodyStep) string { return s.StartedAt }
