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
