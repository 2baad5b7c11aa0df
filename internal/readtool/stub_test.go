// SPDX-License-Identifier: Apache-2.0

package readtool

import (
	"context"
	"encoding/json"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
	"github.com/dagu-mcp-gateway/gateway/internal/readtool/readtooltest"
)

// stubUpstream answers every read with a small fixed model and records the
// typed requests it received, so tests can check what the tool asked for.
// A port method it does not answer itself is the embedded stub's.
type stubUpstream struct {
	readtooltest.Unsupported
	mu    sync.Mutex
	calls []any
	err   error
	names []string
}

func (s *stubUpstream) record(v any) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls = append(s.calls, v)
	return s.err
}

func (s *stubUpstream) last() any {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.calls) == 0 {
		return nil
	}
	return s.calls[len(s.calls)-1]
}

func (s *stubUpstream) ListDAGs(_ context.Context, q model.DAGListQuery) (*model.DAGCollection, error) {
	return &model.DAGCollection{Items: []model.DAGItem{{Name: "a", URI: model.DAGSpecURI("a")}}}, s.record(q)
}

func (s *stubUpstream) GetDAG(_ context.Context, name string) (*model.DAGDetail, error) {
	return &model.DAGDetail{Name: name, SpecURI: model.DAGSpecURI(name)}, s.record("dag:" + name)
}

func (s *stubUpstream) GetDAGSpec(_ context.Context, name string) (*model.DAGSpec, error) {
	return &model.DAGSpec{Name: name, MimeType: "application/yaml", Spec: "steps: []\n", Errors: []string{}}, s.record("spec:" + name)
}

func (s *stubUpstream) DAGNames(context.Context) ([]string, error) { return s.names, nil }

func (s *stubUpstream) SearchDAGs(_ context.Context, q model.DAGSearchQuery) (*model.DAGSearch, error) {
	return &model.DAGSearch{Results: []model.DAGSearchResult{}}, s.record(q)
}

func (s *stubUpstream) ListWiki(_ context.Context, q model.WikiListQuery) (*model.WikiCollection, error) {
	return &model.WikiCollection{Tree: []model.WikiNode{}}, s.record(q)
}

func (s *stubUpstream) GetWikiPage(_ context.Context, ws, path string) (*model.WikiPage, error) {
	return &model.WikiPage{ID: path, MimeType: "text/markdown", URI: model.WikiPageURI(ws, path)}, s.record("page:" + ws + "/" + path)
}

func (s *stubUpstream) SearchWiki(_ context.Context, q model.WikiSearchQuery) (*model.WikiSearch, error) {
	return &model.WikiSearch{Results: []model.WikiSearchResult{}}, s.record(q)
}

func (s *stubUpstream) ListRuns(_ context.Context, q model.RunListQuery) (*model.RunCollection, error) {
	return &model.RunCollection{Items: []model.RunItem{}}, s.record(q)
}

func (s *stubUpstream) GetRun(_ context.Context, a model.RunAddress) (*model.RunDetail, error) {
	return &model.RunDetail{Name: a.Name, DAGRunID: a.DAGRunID, Steps: []model.RunStep{}}, s.record(a)
}

func (s *stubUpstream) GetRunLogs(_ context.Context, a model.RunAddress, q model.LogQuery) (*model.RunLogs, error) {
	return &model.RunLogs{StepLogs: []model.StepLogInfo{}}, s.record([]any{a, q})
}

func (s *stubUpstream) GetStepLog(_ context.Context, a model.StepAddress, q model.LogQuery) (*model.StepLog, error) {
	return &model.StepLog{Stream: "stdout"}, s.record([]any{a, q})
}

func (s *stubUpstream) ListForeachItems(_ context.Context, a model.StepAddress, q model.ForeachQuery) (*model.ForeachItems, error) {
	return &model.ForeachItems{Items: []model.ForeachItemSummary{}}, s.record([]any{a, q})
}

func (s *stubUpstream) GetForeachItem(_ context.Context, a model.StepAddress) (*model.ForeachItem, error) {
	return &model.ForeachItem{Steps: []model.ForeachBodyStep{}}, s.record(a)
}

// stubRefs serves two fixed topics.
type stubRefs struct{}

func (stubRefs) Topics() []model.ReferenceItem {
	return []model.ReferenceItem{{Name: "authoring", URI: model.ReferenceURI("authoring"), MimeType: "text/markdown"}}
}

func (stubRefs) Topic(_ context.Context, name string) (string, error) {
	if name == "authoring" || name == "tools" {
		return "# " + name, nil
	}
	return "", &model.Failure{Kind: model.FailureNotFound, Field: model.FieldName}
}

func newStubTool(t *testing.T) (*Tool, *stubUpstream) {
	t.Helper()
	up := &stubUpstream{}
	tool, err := New(Options{Upstream: up, References: stubRefs{}})
	if err != nil {
		t.Fatal(err)
	}
	return tool, up
}

// callJSON runs the tool on a JSON argument string.
func callJSON(t *testing.T, tool *Tool, args string) *mcp.CallToolResult {
	t.Helper()
	return tool.Call(context.Background(), json.RawMessage(args))
}

// errorOf returns the error object of a failed result, failing the test
// when the result succeeded.
func errorOf(t *testing.T, res *mcp.CallToolResult) *Error {
	t.Helper()
	if !res.IsError {
		t.Fatalf("expected an error result, got success: %s", structured(t, res))
	}
	e, ok := res.StructuredContent.(*Error)
	if !ok {
		t.Fatalf("error structured content is %T", res.StructuredContent)
	}
	return e
}

// structured decodes a result's structured content into a generic map.
func structured(t *testing.T, res *mcp.CallToolResult) map[string]any {
	t.Helper()
	raw, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	return m
}
