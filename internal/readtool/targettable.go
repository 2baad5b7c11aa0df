// SPDX-License-Identifier: Apache-2.0

package readtool

import (
	"fmt"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
)

// MIME types of resource links and resources.
const (
	mimeJSON     = "application/json"
	mimeMarkdown = "text/markdown"
	mimeYAML     = "application/yaml"
)

// runWindowDays is model.DefaultRunWindow in days, as the description and
// the resources state it.
const runWindowDays = int(model.DefaultRunWindow / (24 * time.Hour))

// Echo field sets of the output envelope.
var (
	echoStep = []string{fName, fDAGRunID, fSubRunID, fStepName, fItem, fBodyStepName}
	echoWiki = []string{fWorkspace, fPath, fPrefix}
)

// targetTable is the contract's Target contracts table, one row per target,
// in the order the tool description advertises them. A row is the single
// source of its target: name, fields and defaults, query rules and handler
// (reader), dagu:// patterns with their resource links and templates, the
// description entry, echo and not-found rules. Adding a target is a row
// here, its handler, its port method, and the REST slice behind the port.
var targetTable = []targetSpec{
	{
		name: tReferences, lifetime: referenceLifetime, support: "local", summary: "the reference topics", reader: plain((*Tool).readReferences),
		patterns: []uriPattern{at("reference", link("dagu_references", mimeJSON, "Dagu references"), "").
			listed("The list of reference topics.")},
		noQuery:  "Reference resources do not support query parameters.",
		uris:     describedElsewhere,
		example:  `{"target":"references"}`,
		describe: "references",
	},
	{
		name: tReference, lifetime: referenceLifetime, support: "local", summary: "a reference topic (Markdown)", optional: []string{fName}, defaults: map[string]string{fName: "authoring"},
		reader: plain((*Tool).readReference),
		patterns: []uriPattern{at("reference/{topic}", link("dagu_reference", mimeMarkdown, "Dagu reference"),
			"A built-in reference topic (authoring, tools, read-tool, ...).")},
		noQuery:         "Reference resources do not support query parameters.",
		uriInTargetMode: true, singular: true,
		notFound: blameAlways(fName),
		uris:     "dagu://reference[/{topic}]",
		example:  `{"target":"reference"}`, exampleGolden: "reference-default",
		describe: "reference [name: authoring|tools|read-tool|change-tool|execute-tool|notifications, default authoring]", sharesLine: true,
	},
	{
		name: tDAGs, lifetime: listLifetime, support: "dags", summary: "the DAG list with paging and filters", optional: []string{fQuery}, reader: withQuery(dagsQuery, (*Tool).readDAGs),
		patterns: []uriPattern{at("dags", link("dags", mimeJSON, "DAGs"),
			"The DAG list (query: page, perPage, name, labels, sort, order).").listed("The first page of the DAG list.").called("DAG")},
		dataInText: true,
		example:    `{"target":"dags"}`,
		describe:   "dags [query: page, perPage 1-{{.ListPerPage}}, name, labels=a,b, sort=name|nextRun, order=asc|desc]",
	},
	{
		name: tDAG, lifetime: listLifetime, support: "served", summary: "one DAG with its latest run", required: []string{fName}, reader: plain((*Tool).readDAG),
		notFound: blameAlways(fName),
		example:  `{"target":"dag","name":"mcp_read_contract"}`,
		describe: "dag name",
	},
	{
		name: tDAGSpec, lifetime: specLifetime, support: "served", summary: "a DAG's YAML spec", required: []string{fName}, reader: plain((*Tool).readDAGSpec),
		patterns:        []uriPattern{at("dags/{name}/spec", link("dag_spec", mimeYAML, "DAG spec"), "A DAG's YAML definition.")},
		noQuery:         "DAG spec resources do not support query parameters.",
		uriInTargetMode: true, singular: true,
		notFound: blameAlways(fName),
		example:  `{"target":"dag_spec","name":"failing_job"}`,
		describe: "dag_spec name", sharesLine: true,
	},
	{
		name: tDAGSearch, lifetime: uncached, support: "dag_search", summary: "full-text search over DAG specs", required: []string{fSearch}, optional: []string{fWorkspace, fCursor, fLimit},
		reader:   plain((*Tool).readDAGSearch),
		notFound: blameIfGiven(fWorkspace),
		example:  `{"target":"dag_search","search":"echo","limit":2}`,
		describe: "dag_search search [workspace, cursor, limit {{.SearchMin}}-{{.SearchMax}}]", sharesLine: true,
	},
	{
		name: tWiki, lifetime: uncached, support: "wiki", summary: "the wiki tree or flat list", optional: []string{fWorkspace, fQuery, fPrefix}, reader: withQuery(wikiQuery, (*Tool).readWiki),
		patterns: []uriPattern{
			at("wiki", link("wiki", mimeJSON, "Wiki"),
				"The wiki of every workspace as a tree or flat list (query: page, perPage, flat, sort, order, prefix).").
				listed("The wiki tree of every workspace.").called("Wiki"),
			at("wiki/{workspace}", link("wiki", mimeJSON, "Wiki"), "The wiki of one workspace.").
				template("wiki_workspace", "Wiki workspace"),
		},
		checkSegments:   checkWikiSegments,
		uriInTargetMode: true,
		echo:            echoWiki,
		notFound:        blameIfGiven(fWorkspace),
		uris:            "dagu://wiki[/{workspace}[/{path}]]",
		example:         `{"target":"wiki"}`, exampleGolden: "wiki-tree",
		describe: "wiki [workspace, prefix, query: page, perPage, flat=true|false, sort=name|type|mtime, order]",
	},
	{
		name: tWikiPage, lifetime: uncached, support: "wiki", summary: "one wiki page", required: []string{fWorkspace, fPath}, validate: checkWikiPage,
		reader: plain((*Tool).readWikiPage),
		patterns: []uriPattern{at("wiki/{workspace}/{path}", link("wiki_page", mimeMarkdown, "Wiki page"),
			"One wiki page; the path is one segment (a / inside it is %2F).")},
		checkSegments:   checkWikiPageSegments,
		noQuery:         "Wiki page resources do not support query parameters.",
		uriInTargetMode: true, singular: true,
		echo:     echoWiki,
		notFound: blameAlways(fPath),
		uris:     describedElsewhere,
		example:  `{"target":"wiki_page","workspace":"default","path":"runbooks/nightly-export"}`,
		describe: "wiki_page workspace, path (a concrete workspace such as default)", sharesLine: true,
	},
	{
		name: tWikiSearch, lifetime: uncached, support: "wiki", summary: "full-text search over the wiki", required: []string{fSearch}, optional: []string{fWorkspace, fPrefix, fCursor, fLimit},
		reader:   plain((*Tool).readWikiSearch),
		echo:     echoWiki,
		notFound: blameIfGiven(fWorkspace),
		example:  `{"target":"wiki_search","search":"failing"}`,
		describe: "wiki_search search [workspace, prefix, cursor, limit {{.SearchMin}}-{{.SearchMax}}]", sharesLine: true,
	},
	{
		name: tWorkbook, support: "local", summary: "profile of an `.xlsx`/`.xlsm` file on the gateway's host", required: []string{fPath}, optional: []string{fPassword},
		reader:   plain((*Tool).readWorkbook),
		echo:     []string{fPath},
		describe: "workbook path (absolute .xlsx/.xlsm on the gateway host) [password]",
		mentions: []string{" local Excel workbook profiles,"},
	},
	{
		name: tRuns, lifetime: listLifetime, support: "runs", summary: "DAG-runs", optional: []string{fQuery}, reader: withQuery(runsQuery, (*Tool).readRuns),
		patterns: []uriPattern{at("runs", link("dag_runs", mimeJSON, "DAG-runs"),
			fmt.Sprintf("DAG-runs, the last %d days unless fromDate/toDate say otherwise (query: name, dagRunId, status, fromDate, toDate, limit, cursor, labels).", runWindowDays)).
			listed(fmt.Sprintf("The DAG-runs of the last %d days.", runWindowDays)).called("DAG-run")},
		example: `{"target":"runs","query":"status=2&fromDate=0"}`, exampleGolden: "runs-failed",
		describe: "runs [query: name, dagRunId (latest with name), status=0..{{.MaxRunStatus}} (repeat for several: 2=failed), fromDate, toDate (Unix seconds), limit 1-{{.RunsLimit}}, cursor, labels]. Without fromDate/toDate the list covers the last {{.RunWindowDays}} days.",
	},
	{
		name: tRun, lifetime: runLifetime, support: "run", summary: "one run (or sub-run) with its steps", required: []string{fName, fDAGRunID}, optional: []string{fSubRunID},
		reader: runRead(plain((*Tool).readRun)),
		patterns: withSubRuns("", link("dag_run", mimeJSON, "DAG-run details"),
			"A DAG-run with its steps, status and links to logs; dagRunId may be latest."),
		noQuery:         "DAG-run resources do not support query parameters.",
		uriInTargetMode: true, singular: true,
		notFound: blameRunID,
		uris:     "dagu://runs/{name}/{dagRunId}[/logs]",
		example:  `{"target":"run","name":"failing_job","dagRunId":"0356UUn8VwcWFuh5L8qwbp"}`, exampleGolden: "run-failed",
		describe: "run name, dagRunId (or latest) [subRunId]",
	},
	{
		name: tRunLogs, lifetime: runLifetime, support: "served", summary: "the scheduler log and which step logs exist", required: []string{fName, fDAGRunID}, optional: []string{fQuery},
		reader: runRead(withQuery(runLogsQuery, (*Tool).readRunLogs)),
		patterns: []uriPattern{at(runRoot+"/logs", link("dag_run_logs", mimeJSON, "DAG-run logs"),
			"A run's scheduler log window and which step logs exist (query: tail).")},
		uriInTargetMode: true, singular: true,
		notFound: blameRunID,
		uris:     describedElsewhere,
		example:  `{"target":"run_logs","name":"failing_job","dagRunId":"0356UUn8VwcWFuh5L8qwbp"}`,
		describe: "run_logs name, dagRunId [query: tail 1-{{.LogLines}}; default: last {{.LogTail}} lines, at most {{.LogBudgetKiB}} KiB]",
	},
	{
		name: tStepLog, lifetime: runLifetime, support: "step_log", summary: "a step's stdout/stderr window", required: []string{fName, fDAGRunID, fStepName},
		optional: []string{fSubRunID, fQuery, fItem, fBodyStepName},
		validate: checkItemPair, reader: runRead(withQuery(stepLogQuery, (*Tool).readStepLog)),
		patterns: append(
			withSubRuns("/steps/{stepName}/logs", link("dag_run_step_log", mimeJSON, "DAG-run step log"),
				"A window of a step's stdout and stderr (query: tail, head, offset, limit, stream)."),
			withSubRuns("/steps/{stepName}/foreach/{item}/steps/{bodyStepName}/logs",
				link("dag_run_foreach_step_log", mimeJSON, "DAG-run foreach body step log"), "A window of a foreach body step's log.")...),
		uriInTargetMode: true, singular: true,
		echo:     echoStep,
		notFound: blameAlways(fStepName),
		uris:     ".../steps/{stepName}/logs",
		example:  `{"target":"step_log","name":"failing_job","dagRunId":"0356UUn8VwcWFuh5L8qwbp","stepName":"explode"}`,
		describe: "step_log name, dagRunId, stepName [subRunId, item + bodyStepName, query: tail|head 1-{{.LogLines}}, offset>=1 with limit 1-{{.LogLines}}, limit alone, stream=stdout|stderr]. Default: last {{.LogTail}} lines of both streams, at most {{.LogBudgetKiB}} KiB each (hasMore says when more exists).",
	},
	{
		name: tForeachItems, lifetime: uncached, support: "foreach", summary: "the items of a foreach step", required: []string{fName, fDAGRunID, fStepName}, optional: []string{fSubRunID, fQuery},
		reader: runRead(withQuery(foreachItemsQuery, (*Tool).readForeachItems)),
		patterns: withSubRuns("/steps/{stepName}/foreach", link("dag_run_foreach_items", mimeJSON, "DAG-run foreach items"),
			"The items of a foreach step (query: status, page, perPage, parent)."),
		uriInTargetMode: true, singular: true,
		echo:     echoStep,
		notFound: blameAlways(fStepName),
		uris:     ".../steps/{stepName}/foreach[/{item}[/steps/{bodyStepName}/logs]]",
		example:  `{"target":"foreach_items","name":"foreach_job","dagRunId":"0356UUnVEGj0qj7EkXG3Be","stepName":"each"}`, exampleGolden: "foreach-routes-items",
		describe: "foreach_items name, dagRunId, stepName [subRunId, query: status=not_started|running|succeeded|failed|aborted, page, perPage 1-{{.ForeachPerPage}}, parent]",
	},
	{
		name: tForeachItem, lifetime: uncached, support: "foreach", summary: "one item and its body steps", required: []string{fName, fDAGRunID, fStepName, fItem}, optional: []string{fSubRunID},
		reader: runRead(plain((*Tool).readForeachItem)),
		patterns: withSubRuns("/steps/{stepName}/foreach/{item}", link("dag_run_foreach_item", mimeJSON, "DAG-run foreach item"),
			"One foreach item and its body steps."),
		noQuery:         "Foreach item resources do not support query parameters.",
		uriInTargetMode: true, singular: true,
		echo:     echoStep,
		notFound: blameAlways(fItem),
		uris:     describedElsewhere,
		example:  `{"target":"foreach_item","name":"foreach_job","dagRunId":"0356UUnVEGj0qj7EkXG3Be","stepName":"each","item":"1"}`, exampleGolden: "foreach-routes-item",
		describe: "foreach_item name, dagRunId, stepName, item [subRunId]",
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
