// SPDX-License-Identifier: Apache-2.0

package readtool

import (
	"context"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
)

// The handlers: each reads one target through its port method, with the
// fields the call validated and, for targets that take a query, the typed
// query validated once in resolve. A run read's not-found failure is
// answered with its explanation by its row's reader (runRead,
// runnotfound.go), a DAG read's with did-you-mean (dag.go); the classifier
// never calls a port.

func (t *Tool) readReferences(context.Context, *call) (any, error) {
	return &model.ReferenceCollection{Items: t.refs.Topics()}, nil
}

func (t *Tool) readReference(ctx context.Context, c *call) (any, error) {
	name := c.in.get(fName)
	text, err := t.refs.Topic(ctx, name)
	if err != nil {
		return nil, err
	}
	return t.topics.of(&model.ReferenceTopic{Name: name, MimeType: mimeMarkdown, Text: text})
}

func (t *Tool) readDAGs(ctx context.Context, _ *call, q model.DAGListQuery) (any, error) {
	return t.up.ListDAGs(ctx, q)
}

func (t *Tool) readDAGSearch(ctx context.Context, c *call) (any, error) {
	return t.up.SearchDAGs(ctx, model.DAGSearchQuery{
		Search:    c.in.get(fSearch),
		Workspace: c.in.get(fWorkspace),
		Cursor:    c.in.get(fCursor),
		Limit:     c.in.limit,
	})
}

func (t *Tool) readWiki(ctx context.Context, c *call, q model.WikiListQuery) (any, error) {
	q.Workspace = workspaceOrAll(c.in.get(fWorkspace))
	return t.up.ListWiki(ctx, q)
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

func (t *Tool) readRuns(ctx context.Context, _ *call, q model.RunListQuery) (any, error) {
	return t.up.ListRuns(ctx, q)
}

func (t *Tool) readRun(ctx context.Context, c *call) (any, error) {
	return t.up.GetRun(ctx, runAddress(c))
}

func (t *Tool) readRunLogs(ctx context.Context, c *call, q model.LogQuery) (any, error) {
	return t.up.GetRunLogs(ctx, runAddress(c), q)
}

func (t *Tool) readStepLog(ctx context.Context, c *call, q model.LogQuery) (any, error) {
	return t.up.GetStepLog(ctx, stepAddress(c), q)
}

func (t *Tool) readForeachItems(ctx context.Context, c *call, q model.ForeachQuery) (any, error) {
	return t.up.ListForeachItems(ctx, stepAddress(c), q)
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
