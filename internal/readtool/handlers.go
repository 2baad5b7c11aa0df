// SPDX-License-Identifier: Apache-2.0

package readtool

import (
	"context"
	"strconv"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
)

func (t *Tool) readReferences(context.Context, *call) (any, error) {
	return &model.ReferenceCollection{Items: t.refs.Topics()}, nil
}

func (t *Tool) readReference(ctx context.Context, c *call) (any, error) {
	name := c.in.get(fName)
	text, err := t.refs.Topic(ctx, name)
	if err != nil {
		return nil, err
	}
	return &model.ReferenceTopic{Name: name, MimeType: "text/markdown", Text: text}, nil
}

func (t *Tool) readDAGSearch(ctx context.Context, c *call) (any, error) {
	return t.up.SearchDAGs(ctx, model.DAGSearchQuery{
		Search:    c.in.get(fSearch),
		Workspace: c.in.get(fWorkspace),
		Cursor:    c.in.get(fCursor),
		Limit:     c.in.limit,
	})
}

func (t *Tool) readDAGs(ctx context.Context, c *call) (any, error) {
	q := c.query
	return t.up.ListDAGs(ctx, model.DAGListQuery{
		Page:    queryInt(q, "page"),
		PerPage: queryInt(q, "perPage"),
		Name:    q.Get("name"),
		Labels:  labelsOf(q.Get("labels")),
		Sort:    q.Get("sort"),
		Order:   q.Get("order"),
	})
}

func (t *Tool) readWiki(ctx context.Context, c *call) (any, error) {
	q := c.query
	return t.up.ListWiki(ctx, model.WikiListQuery{
		Workspace: workspaceOrAll(c.in.get(fWorkspace)),
		Prefix:    c.effectivePrefix(),
		Page:      queryInt(q, "page"),
		PerPage:   queryInt(q, "perPage"),
		Flat:      q.Get("flat") == "true",
		Sort:      q.Get("sort"),
		Order:     q.Get("order"),
	})
}

func (t *Tool) readWikiPage(ctx context.Context, c *call) (any, error) {
	return t.up.GetWikiPage(ctx, c.in.get(fWorkspace), c.in.get(fPath))
}

func (t *Tool) readWikiSearch(ctx context.Context, c *call) (any, error) {
	return t.up.SearchWiki(ctx, model.WikiSearchQuery{
		Search:    c.in.get(fSearch),
		Workspace: workspaceOrAll(c.in.get(fWorkspace)),
		Prefix:    c.in.get(fPrefix),
		Cursor:    c.in.get(fCursor),
		Limit:     c.in.limit,
	})
}

func (t *Tool) readRuns(ctx context.Context, c *call) (any, error) {
	q := c.query
	return t.up.ListRuns(ctx, model.RunListQuery{
		Name:     q.Get("name"),
		DAGRunID: q.Get("dagRunId"),
		Status:   intsOf(q["status"]),
		FromDate: int64Of(q.Get("fromDate")),
		ToDate:   int64Of(q.Get("toDate")),
		Limit:    queryInt(q, "limit"),
		Cursor:   q.Get("cursor"),
		Labels:   labelsOf(q.Get("labels")),
	})
}

func (t *Tool) readRun(ctx context.Context, c *call) (any, error) {
	return t.up.GetRun(ctx, runAddress(c))
}

func (t *Tool) readRunLogs(ctx context.Context, c *call) (any, error) {
	return t.up.GetRunLogs(ctx, runAddress(c), model.LogQuery{Tail: queryInt(c.query, "tail")})
}

func (t *Tool) readStepLog(ctx context.Context, c *call) (any, error) {
	q := c.query
	return t.up.GetStepLog(ctx, stepAddress(c), model.LogQuery{
		Tail:   queryInt(q, "tail"),
		Head:   queryInt(q, "head"),
		Offset: queryInt(q, "offset"),
		Limit:  queryInt(q, "limit"),
		Stream: q.Get("stream"),
	})
}

func (t *Tool) readForeachItems(ctx context.Context, c *call) (any, error) {
	q := c.query
	return t.up.ListForeachItems(ctx, stepAddress(c), model.ForeachQuery{
		Parent:  q.Get("parent"),
		Status:  q.Get("status"),
		Page:    queryInt(q, "page"),
		PerPage: queryInt(q, "perPage"),
	})
}

func (t *Tool) readForeachItem(ctx context.Context, c *call) (any, error) {
	return t.up.GetForeachItem(ctx, stepAddress(c))
}

func runAddress(c *call) model.RunAddress {
	return model.RunAddress{Name: c.in.get(fName), DAGRunID: c.in.get(fDAGRunID), SubRunID: c.in.get(fSubRunID)}
}

func stepAddress(c *call) model.StepAddress {
	return model.StepAddress{
		RunAddress:   runAddress(c),
		StepName:     c.in.get(fStepName),
		Item:         c.in.get(fItem),
		BodyStepName: c.in.get(fBodyStepName),
	}
}

func workspaceOrAll(ws string) string {
	if ws == "" {
		return allWorkspaces
	}
	return ws
}

func labelsOf(v string) []string {
	if v == "" {
		return nil
	}
	return splitLabels(v)
}

func intsOf(vals []string) []int {
	out := make([]int, 0, len(vals))
	for _, v := range vals {
		n, _ := strconv.Atoi(v)
		out = append(out, n)
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

func int64Of(v string) *int64 {
	if v == "" {
		return nil
	}
	n, _ := strconv.ParseInt(v, 10, 64)
	return &n
}
