// SPDX-License-Identifier: Apache-2.0

package readtool_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
	"github.com/dagu-mcp-gateway/gateway/internal/readtool"
	"github.com/dagu-mcp-gateway/gateway/internal/readtool/readtooltest"
	"github.com/dagu-mcp-gateway/gateway/internal/reference"
)

// specOnly is an Upstream that knows one DAG spec; the embedded stub
// answers every other read as one this Dagu does not support.
type specOnly struct{ readtooltest.Unsupported }

func (specOnly) GetDAGSpec(_ context.Context, name string) (*model.DAGSpec, error) {
	if name != "nightly" {
		return nil, &model.Failure{Kind: model.FailureNotFound, Field: model.FieldName}
	}
	return &model.DAGSpec{Name: name, MimeType: "application/yaml", Spec: "steps:\n  - command: echo hi\n", Errors: []string{}}, nil
}

func (specOnly) DAGNames(context.Context) ([]string, error) { return []string{"nightly"}, nil }

// The tool turns raw arguments into the contract's envelope or error
// object; the Upstream port is all it knows of Dagu.
func ExampleTool_Call() {
	refs, err := reference.New(reference.Options{})
	if err != nil {
		panic(err)
	}
	tool, err := readtool.New(readtool.Options{Upstream: specOnly{}, References: refs})
	if err != nil {
		panic(err)
	}
	for _, args := range []string{
		`{"target":"dag_spec","name":"nightly"}`,
		`{"uri":"dagu://dags/nightly/spec"}`,
		`{"target":"dag_spec","name":"nightlly"}`,
		`{"target":"run","name":"nightly"}`,
	} {
		res := tool.Call(context.Background(), json.RawMessage(args))
		out, _ := json.Marshal(res.StructuredContent)
		fmt.Println(string(out))
	}
	// Output:
	// {"target":"dag_spec","uri":"dagu://dags/nightly/spec","data":{"name":"nightly","mimeType":"application/yaml","spec":"steps:\n  - command: echo hi\n","errors":[]},"references":["dagu://reference/authoring","dagu://reference/tools","dagu://reference/notifications"]}
	// {"target":"dag_spec","uri":"dagu://dags/nightly/spec","data":{"name":"nightly","mimeType":"application/yaml","spec":"steps:\n  - command: echo hi\n","errors":[]},"references":["dagu://reference/authoring","dagu://reference/tools","dagu://reference/notifications"]}
	// {"code":"resource_not_found","message":"DAG \"nightlly\" was not found. Did you mean \"nightly\"?","target":"dag_spec","field":"name","uri":"dagu://dags/nightlly/spec","details":{"didYouMean":["nightly"]}}
	// {"code":"invalid_tool_input","message":"The dagRunId field is required for target run.","target":"run","field":"dagRunId"}
}
