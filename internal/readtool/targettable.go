// SPDX-License-Identifier: Apache-2.0

package readtool

import "github.com/dagu-mcp-gateway/gateway/internal/model"

// MIME types of resource links and resources.
const (
	mimeJSON     = "application/json"
	mimeMarkdown = "text/markdown"
	mimeYAML     = "application/yaml"
)

// Echo field sets of the output envelope.
var (
	echoStep = []string{fName, fDAGRunID, fSubRunID, fStepName, fItem, fBodyStepName}
	echoWiki = []string{fWorkspace, fPath, fPrefix}
)

// targetTable is the contract's Target contracts table, one row per target,
// in the order the tool description advertises them.
var targetTable = []targetSpec{
	{
		name: tReferences, noQuery: "Reference resources do not support query parameters.",
		uri:  func(*call) string { return model.ReferencesURI() },
		link: fixedLink("dagu_references", mimeJSON, "Dagu references"),
		read: (*Tool).readReferences,
	},
	{
		name: tReference, optional: []string{fName}, defaults: map[string]string{fName: "authoring"},
		noQuery: "Reference resources do not support query parameters.",
		uri:     func(c *call) string { return model.ReferenceURI(c.in.get(fName)) }, uriInTargetMode: true, singular: true,
		link:     fixedLink("dagu_reference", mimeMarkdown, "Dagu reference"),
		notFound: blameAlways(fName),
		read:     (*Tool).readReference,
	},
	{
		name: tDAGs, optional: []string{fQuery}, query: dagsQuery,
		uri:  func(c *call) string { return model.WithQuery(model.DAGsURI(), c.rawQuery()) },
		link: fixedLink("dags", mimeJSON, "DAGs"), dataInText: true,
		read: (*Tool).readDAGs,
	},
	{
		name: tDAG, required: []string{fName},
		notFound: blameAlways(fName),
		read:     (*Tool).readDAG,
	},
	{
		name: tDAGSpec, required: []string{fName},
		noQuery: "DAG spec resources do not support query parameters.",
		uri:     func(c *call) string { return model.DAGSpecURI(c.in.get(fName)) }, uriInTargetMode: true, singular: true,
		link:     fixedLink("dag_spec", mimeYAML, "DAG spec"),
		notFound: blameAlways(fName),
		read:     (*Tool).readDAGSpec,
	},
	{
		name: tDAGSearch, required: []string{fSearch}, optional: []string{fWorkspace, fCursor, fLimit},
		notFound: blameIfGiven(fWorkspace),
		read:     (*Tool).readDAGSearch,
	},
	{
		name: tWiki, optional: []string{fWorkspace, fQuery, fPrefix}, query: wikiQuery, reconcile: mergeWikiPrefix,
		uri:             func(c *call) string { return model.WithQuery(model.WikiURI(c.in.get(fWorkspace)), c.rawQuery()) },
		uriInTargetMode: true,
		link:            fixedLink("wiki", mimeJSON, "Wiki"),
		echo:            echoWiki,
		notFound:        blameIfGiven(fWorkspace),
		read:            (*Tool).readWiki,
	},
	{
		name: tWikiPage, required: []string{fWorkspace, fPath}, validate: checkWikiPage,
		noQuery: "Wiki page resources do not support query parameters.",
		uri: func(c *call) string {
			return model.WikiPageURI(c.in.get(fWorkspace), c.in.get(fPath))
		},
		uriInTargetMode: true, singular: true,
		link:     fixedLink("wiki_page", mimeMarkdown, "Wiki page"),
		echo:     echoWiki,
		notFound: blameAlways(fPath),
		read:     (*Tool).readWikiPage,
	},
	{
		name: tWikiSearch, required: []string{fSearch}, optional: []string{fWorkspace, fPrefix, fCursor, fLimit},
		echo:     echoWiki,
		notFound: blameIfGiven(fWorkspace),
		read:     (*Tool).readWikiSearch,
	},
	{
		name: tWorkbook, required: []string{fPath}, optional: []string{fPassword},
		echo: []string{fPath},
		read: (*Tool).readWorkbook,
	},
	{
		name: tRuns, optional: []string{fQuery}, query: runsQuery,
		uri:  func(c *call) string { return model.WithQuery(model.RunsURI(), c.rawQuery()) },
		link: fixedLink("dag_runs", mimeJSON, "DAG-runs"),
		read: (*Tool).readRuns,
	},
	{
		name: tRun, required: []string{fName, fDAGRunID}, optional: []string{fSubRunID},
		noQuery: "DAG-run resources do not support query parameters.",
		uri: func(c *call) string {
			return model.RunURI(c.in.get(fName), c.in.get(fDAGRunID), c.in.get(fSubRunID))
		},
		uriInTargetMode: true, singular: true,
		link:     runLink("dag_run", "sub_dag_run", "details"),
		notFound: blameRunID,
		read:     (*Tool).readRun,
	},
	{
		name: tRunLogs, required: []string{fName, fDAGRunID}, optional: []string{fQuery}, query: runLogsQuery,
		uri: func(c *call) string {
			return model.WithQuery(model.RunLogsURI(c.in.get(fName), c.in.get(fDAGRunID)), c.rawQuery())
		},
		uriInTargetMode: true, singular: true,
		link:     fixedLink("dag_run_logs", mimeJSON, "DAG-run logs"),
		notFound: blameRunID,
		read:     (*Tool).readRunLogs,
	},
	{
		name: tStepLog, required: []string{fName, fDAGRunID, fStepName},
		optional: []string{fSubRunID, fQuery, fItem, fBodyStepName},
		validate: checkItemPair, query: stepLogQuery, checkQuery: checkLogWindow,
		uri:             func(c *call) string { return model.WithQuery(stepLogURI(c.in), c.rawQuery()) },
		uriInTargetMode: true, singular: true,
		link:     stepLogLink,
		echo:     echoStep,
		notFound: blameAlways(fStepName),
		read:     (*Tool).readStepLog,
	},
	{
		name: tForeachItems, required: []string{fName, fDAGRunID, fStepName}, optional: []string{fSubRunID, fQuery},
		query: foreachItemsQuery,
		uri: func(c *call) string {
			in := c.in
			return model.WithQuery(model.ForeachItemsURI(in.get(fName), in.get(fDAGRunID), in.get(fSubRunID), in.get(fStepName)), c.rawQuery())
		},
		uriInTargetMode: true, singular: true,
		link:     runLink("dag_run_foreach_items", "sub_dag_run_foreach_items", "foreach items"),
		echo:     echoStep,
		notFound: blameAlways(fStepName),
		read:     (*Tool).readForeachItems,
	},
	{
		name: tForeachItem, required: []string{fName, fDAGRunID, fStepName, fItem}, optional: []string{fSubRunID},
		noQuery: "Foreach item resources do not support query parameters.",
		uri: func(c *call) string {
			in := c.in
			return model.ForeachItemURI(in.get(fName), in.get(fDAGRunID), in.get(fSubRunID), in.get(fStepName), in.get(fItem))
		},
		uriInTargetMode: true, singular: true,
		link:     runLink("dag_run_foreach_item", "sub_dag_run_foreach_item", "foreach item"),
		echo:     echoStep,
		notFound: blameAlways(fItem),
		read:     (*Tool).readForeachItem,
	},
}

// blameAlways blames one field for a not-found answer.
func blameAlways(field string) func(*call) string {
	return func(*call) string { return field }
}

// blameIfGiven blames an optional field only when the caller supplied it.
func blameIfGiven(field string) func(*call) string {
	return func(c *call) string {
		if c.in.has(field) {
			return field
		}
		return ""
	}
}

// blameRunID blames the most specific run identifier supplied.
func blameRunID(c *call) string {
	if c.in.has(fSubRunID) {
		return fSubRunID
	}
	return fDAGRunID
}

func stepLogURI(in *input) string {
	name, id, sub, step := in.get(fName), in.get(fDAGRunID), in.get(fSubRunID), in.get(fStepName)
	if in.has(fItem) {
		return model.ForeachStepLogURI(name, id, sub, step, in.get(fItem), in.get(fBodyStepName))
	}
	return model.StepLogURI(name, id, sub, step)
}
