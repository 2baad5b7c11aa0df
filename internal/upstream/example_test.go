// SPDX-License-Identifier: Apache-2.0

package upstream_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
	"github.com/dagu-mcp-gateway/gateway/internal/model"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient"
	"github.com/dagu-mcp-gateway/gateway/internal/upstream"
)

// Runs of the fake Dagu's recorded data set.
const (
	failingRun = "0356UUn8VwcWFuh5L8qwbp"
	foreachRun = "0356UUnVEGj0qj7EkXG3Be"
)

// exampleAdapter is an adapter over a fake Dagu (the current release) with
// the run and list caches on, as the gateway runs it; stop ends both.
func exampleAdapter(fake fakedagu.Options) (adapter *upstream.Adapter, stop func()) {
	fake.APIKey = "dagu_example_key"
	dagu := httptest.NewServer(fakedagu.New(fake))
	client, err := restclient.New(restclient.Config{BaseURL: dagu.URL, Key: restclient.StaticKey("dagu_example_key")})
	if err != nil {
		panic(err)
	}
	adapter, err = upstream.NewAdapter(upstream.AdapterOptions{
		Client: client, RunCacheBytes: upstream.DefaultRunCacheBytes, ListCacheTTL: upstream.DefaultListCacheTTL,
	})
	if err != nil {
		panic(err)
	}
	return adapter, dagu.Close
}

func exampleContext() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), 10*time.Second)
}

// The adapter answers the read tool's questions in the contract's models:
// here one run of the recorded failing_job, read from a fake Dagu. Failures
// come back as *model.Failure values that name the input at fault.
func ExampleAdapter() {
	dagu := httptest.NewServer(fakedagu.New(fakedagu.Options{APIKey: "dagu_example_key"}))
	defer dagu.Close()

	client, err := restclient.New(restclient.Config{BaseURL: dagu.URL, Key: restclient.StaticKey("dagu_example_key")})
	if err != nil {
		panic(err)
	}
	adapter, err := upstream.NewAdapter(upstream.AdapterOptions{Client: client})
	if err != nil {
		panic(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	run, err := adapter.GetRun(ctx, model.RunAddress{Name: "failing_job", DAGRunID: "0356UUn8VwcWFuh5L8qwbp"})
	if err != nil {
		panic(err)
	}
	fmt.Println(run.Name, run.StatusLabel, run.URI)

	_, err = adapter.GetRun(ctx, model.RunAddress{Name: "failing_job", DAGRunID: "no-such-run"})
	if f, ok := model.AsFailure(err); ok {
		fmt.Println(f.Kind, f.Status, f.Field)
	}
	// Output:
	// failing_job failed dagu://runs/failing_job/0356UUn8VwcWFuh5L8qwbp
	// http 404 dagRunId
}

// Refresh detects what the Dagu server offers; reads then choose their
// routes by it (Start does the same in the background, periodically).
func ExampleAdapter_Refresh() {
	adapter, stop := exampleAdapter(fakedagu.Options{Profile: fakedagu.Profile129})
	defer stop()
	ctx, cancel := exampleContext()
	defer cancel()

	caps, err := adapter.Refresh(ctx)
	if err != nil {
		panic(err)
	}
	fmt.Println(caps.APIBase, "wiki:", caps.Wiki, "sub-runs:", caps.SubRuns, "foreach routes:", caps.ForeachRoutes)
	// Output:
	// /api/v2 wiki: false sub-runs: true foreach routes: false
}

// ListDAGs pages through the DAG list with Dagu's own paging.
func ExampleAdapter_ListDAGs() {
	adapter, stop := exampleAdapter(fakedagu.Options{})
	defer stop()
	ctx, cancel := exampleContext()
	defer cancel()

	dags, err := adapter.ListDAGs(ctx, model.DAGListQuery{PerPage: 2})
	if err != nil {
		panic(err)
	}
	for _, d := range dags.Items {
		fmt.Println(d.Name, d.URI)
	}
	fmt.Println("total:", dags.Pagination.TotalRecords)
	// Output:
	// approval_job dagu://dags/approval_job/spec
	// big_log_job dagu://dags/big_log_job/spec
	// total: 17
}

// GetDAGSpec reads a DAG's YAML; a missing DAG names the field at fault.
func ExampleAdapter_GetDAGSpec() {
	adapter, stop := exampleAdapter(fakedagu.Options{})
	defer stop()
	ctx, cancel := exampleContext()
	defer cancel()

	spec, err := adapter.GetDAGSpec(ctx, "failing_job")
	if err != nil {
		panic(err)
	}
	fmt.Println(spec.Name, spec.MimeType, len(spec.Errors))

	_, err = adapter.GetDAGSpec(ctx, "no_such_dag")
	if f, ok := model.AsFailure(err); ok {
		fmt.Println(f.Kind, f.Status, f.Field)
	}
	// Output:
	// failing_job application/yaml 0
	// http 404 name
}

// ListRuns with dagRunId "latest" and a name answers that DAG's newest
// run; other lists page through Dagu's run list (an unfiltered one covers
// the adapter's run window).
func ExampleAdapter_ListRuns() {
	adapter, stop := exampleAdapter(fakedagu.Options{})
	defer stop()
	ctx, cancel := exampleContext()
	defer cancel()

	runs, err := adapter.ListRuns(ctx, model.RunListQuery{Name: "failing_job", DAGRunID: model.LatestRun})
	if err != nil {
		panic(err)
	}
	for _, r := range runs.Items {
		fmt.Println(r.Name, r.DAGRunID, r.StatusLabel)
	}
	// Output:
	// failing_job 0356UUn8VwcWFuh5L8qwbp failed
}

// GetRunLogs reads the scheduler log's window and which step logs exist.
func ExampleAdapter_GetRunLogs() {
	adapter, stop := exampleAdapter(fakedagu.Options{})
	defer stop()
	ctx, cancel := exampleContext()
	defer cancel()

	logs, err := adapter.GetRunLogs(ctx, model.RunAddress{Name: "failing_job", DAGRunID: failingRun}, model.LogQuery{Tail: 1})
	if err != nil {
		panic(err)
	}
	for _, s := range logs.StepLogs {
		fmt.Println(s.StepName, s.StatusLabel, "stdout:", s.HasStdout, "stderr:", s.HasStderr)
	}
	// Output:
	// prepare succeeded stdout: true stderr: true
	// explode failed stdout: true stderr: true
}

// GetStepLog reads a window of a step's output; a step that does not
// exist is told apart from a missing log by one follow-up read.
func ExampleAdapter_GetStepLog() {
	adapter, stop := exampleAdapter(fakedagu.Options{})
	defer stop()
	ctx, cancel := exampleContext()
	defer cancel()

	run := model.RunAddress{Name: "failing_job", DAGRunID: failingRun}
	log, err := adapter.GetStepLog(ctx, model.StepAddress{RunAddress: run, StepName: "explode"}, model.LogQuery{Stream: "stderr", Head: 1})
	if err != nil {
		panic(err)
	}
	fmt.Printf("%s %q has more: %v\n", log.Stream, log.StderrContent, log.HasMore)

	_, err = adapter.GetStepLog(ctx, model.StepAddress{RunAddress: run, StepName: "no_such_step"}, model.LogQuery{})
	if f, ok := model.AsFailure(err); ok {
		fmt.Println(f.Kind, f.Status, f.Field)
	}
	// Output:
	// stderr "boom: disk full" has more: false
	// http 404 stepName
}

// ListForeachItems lists a foreach step's items: from the /foreach routes
// where Dagu has them, else from the summary an older Dagu writes.
func ExampleAdapter_ListForeachItems() {
	adapter, stop := exampleAdapter(fakedagu.Options{Foreach: fakedagu.ForeachRoutes})
	defer stop()
	ctx, cancel := exampleContext()
	defer cancel()

	step := model.StepAddress{RunAddress: model.RunAddress{Name: "foreach_job", DAGRunID: foreachRun}, StepName: "each"}
	items, err := adapter.ListForeachItems(ctx, step, model.ForeachQuery{PerPage: 2})
	if err != nil {
		panic(err)
	}
	fmt.Println("total:", items.Total, "source:", items.Source)
	for _, it := range items.Items {
		fmt.Println(it.Item, it.StatusLabel)
	}
	// Output:
	// total: 3 source: foreach-route
	// 1 failed
	// 0 succeeded
}

// GetForeachItem reads one item with its body steps.
func ExampleAdapter_GetForeachItem() {
	adapter, stop := exampleAdapter(fakedagu.Options{Foreach: fakedagu.ForeachRoutes})
	defer stop()
	ctx, cancel := exampleContext()
	defer cancel()

	step := model.StepAddress{RunAddress: model.RunAddress{Name: "foreach_job", DAGRunID: foreachRun}, StepName: "each", Item: "1"}
	item, err := adapter.GetForeachItem(ctx, step)
	if err != nil {
		panic(err)
	}
	fmt.Println(item.Item, item.StatusLabel, "steps:", len(item.Steps))
	for _, s := range item.Steps {
		fmt.Println(s.Name)
	}
	// Output:
	// 1 failed steps: 1
	// work
}

// Start detects the server's capabilities in the background and again every
// CapabilityRefresh until its context ends; Capabilities reports the last
// detection that succeeded.
func ExampleAdapter_Start() {
	adapter, stop := exampleAdapter(fakedagu.Options{})
	defer stop()
	ctx, cancel := exampleContext()
	defer cancel()

	adapter.Start(ctx)
	for {
		if caps, ok := adapter.Capabilities(); ok {
			fmt.Println(caps.APIBase, "wiki:", caps.Wiki, "event logs:", caps.EventLogs)
			return
		}
		select {
		case <-ctx.Done():
			panic(ctx.Err())
		case <-time.After(10 * time.Millisecond):
		}
	}
	// Output:
	// /api/v1 wiki: true event logs: true
}

// GetDAG reads one DAG with its latest run.
func ExampleAdapter_GetDAG() {
	adapter, stop := exampleAdapter(fakedagu.Options{})
	defer stop()
	ctx, cancel := exampleContext()
	defer cancel()

	dag, err := adapter.GetDAG(ctx, "failing_job")
	if err != nil {
		panic(err)
	}
	fmt.Println(dag.Name, dag.SpecURI, dag.LatestRun.StatusLabel)
	// Output:
	// failing_job dagu://dags/failing_job/spec failed
}

// DAGNames lists every DAG file name (for did-you-mean suggestions).
func ExampleAdapter_DAGNames() {
	adapter, stop := exampleAdapter(fakedagu.Options{})
	defer stop()
	ctx, cancel := exampleContext()
	defer cancel()

	names, err := adapter.DAGNames(ctx)
	if err != nil {
		panic(err)
	}
	fmt.Println(len(names), names[0])
	// Output:
	// 17 approval_job
}

// SearchDAGs searches the DAG specs' text, cursor paged.
func ExampleAdapter_SearchDAGs() {
	adapter, stop := exampleAdapter(fakedagu.Options{})
	defer stop()
	ctx, cancel := exampleContext()
	defer cancel()

	found, err := adapter.SearchDAGs(ctx, model.DAGSearchQuery{Search: "disk full", Limit: 1})
	if err != nil {
		panic(err)
	}
	for _, r := range found.Results {
		fmt.Println(r.Name, len(r.Matches), "more:", found.HasMore)
	}
	// Output:
	// failing_job 1 more: false
}

// ListWiki lists the wiki's pages; GetWikiPage reads one of them, in a
// concrete workspace (the default one here).
func ExampleAdapter_ListWiki() {
	adapter, stop := exampleAdapter(fakedagu.Options{})
	defer stop()
	ctx, cancel := exampleContext()
	defer cancel()

	pages, err := adapter.ListWiki(ctx, model.WikiListQuery{Flat: true, PerPage: 2})
	if err != nil {
		panic(err)
	}
	for _, p := range pages.Items {
		fmt.Println(p.ID, p.URI)
	}
	page, err := adapter.GetWikiPage(ctx, "default", pages.Items[0].ID)
	if err != nil {
		panic(err)
	}
	fmt.Println(page.ID, page.MimeType, page.URI)
	// Output:
	// index dagu://wiki/default/index
	// ops/oncall/handbook dagu://wiki/ops/oncall%2Fhandbook
	// index text/markdown dagu://wiki/default/index
}

// SearchWiki searches the wiki's pages.
func ExampleAdapter_SearchWiki() {
	adapter, stop := exampleAdapter(fakedagu.Options{})
	defer stop()
	ctx, cancel := exampleContext()
	defer cancel()

	found, err := adapter.SearchWiki(ctx, model.WikiSearchQuery{Search: "runbook", Limit: 2})
	if err != nil {
		panic(err)
	}
	for _, r := range found.Results {
		fmt.Println(r.ID, r.Title)
	}
	// Output:
	// index index
}
