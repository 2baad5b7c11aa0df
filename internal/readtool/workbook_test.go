// SPDX-License-Identifier: Apache-2.0

package readtool

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
	"github.com/dagu-mcp-gateway/gateway/internal/workbook"
)

// stubBooks records what it was asked and answers with a fixed profile or
// a fixed error.
type stubBooks struct {
	path, password string
	err            error
}

func (s *stubBooks) Profile(_ context.Context, path, password string) (*model.Workbook, error) {
	s.path, s.password = path, password
	if s.err != nil {
		return nil, s.err
	}
	return &model.Workbook{Path: "/resolved" + path, DateSystem: model.DateSystem1900}, nil
}

func newWorkbookTool(t *testing.T, books *stubBooks) (*Tool, *bytes.Buffer) {
	t.Helper()
	var logs bytes.Buffer
	tool, err := New(Options{Upstream: &stubUpstream{}, References: stubRefs{}, Workbooks: books,
		Logger: slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	if err != nil {
		t.Fatal(err)
	}
	return tool, &logs
}

func TestWorkbookPasswordVerbatimAndNeverLogged(t *testing.T) {
	t.Parallel()
	books := &stubBooks{}
	tool, logs := newWorkbookTool(t, books)
	res := callJSON(t, tool, `{"target":"workbook","path":"  /data/a.xlsx ","password":"  s3cret pw  "}`)
	if res.IsError {
		t.Fatalf("refused: %+v", res.StructuredContent)
	}
	if books.password != "  s3cret pw  " || books.path != "/data/a.xlsx" {
		t.Fatalf("profiler got path %q password %q", books.path, books.password)
	}
	out := structured(t, res)
	if out["path"] != "/data/a.xlsx" || len(res.Content) != 1 {
		t.Fatalf("envelope = %v, %d content items", out, len(res.Content))
	}
	if strings.Contains(logs.String(), "s3cret") {
		t.Fatal("the password reached the log")
	}
	if !strings.Contains(logs.String(), `"workbook_path":"/data/a.xlsx"`) || !strings.Contains(logs.String(), `"audit":true`) {
		t.Fatalf("no audit record with workbook_path:\n%s", logs.String())
	}
}

func TestWorkbookErrorsKeepTheirFieldAndMessage(t *testing.T) {
	t.Parallel()
	tests := []struct {
		err   *workbook.Error
		code  Code
		field string
	}{
		{&workbook.Error{Kind: workbook.KindInvalidInput, Field: "password", Message: "a.xlsx: workbook password is missing or incorrect"}, CodeInvalidToolInput, "password"},
		{&workbook.Error{Kind: workbook.KindInvalidInput, Field: "path", Message: "only .xlsx and .xlsm workbooks are supported; save as .xlsx"}, CodeInvalidToolInput, "path"},
		{&workbook.Error{Kind: workbook.KindNotFound, Field: "path", Message: "a.xlsx: workbook not found"}, CodeResourceNotFound, "path"},
		{&workbook.Error{Kind: workbook.KindUnavailable, Field: "path", Message: "a.xlsx: held"}, CodeResourceUnavailable, "path"},
		{&workbook.Error{Kind: workbook.KindUnauthorized, Field: "path", Message: "a.xlsx: outside"}, CodeUnauthorized, "path"},
	}
	for _, tt := range tests {
		t.Run(tt.err.Message, func(t *testing.T) {
			tool, _ := newWorkbookTool(t, &stubBooks{err: tt.err})
			e := errorOf(t, callJSON(t, tool, `{"target":"workbook","path":"/x/a.xlsx","password":"pw"}`))
			checkErr(t, e, wantErr{code: tt.code, field: tt.field, target: tWorkbook, message: tt.err.Message})
		})
	}
}

func TestWorkbookWithoutProfilerIsUnavailable(t *testing.T) {
	t.Parallel()
	tool, _ := newStubTool(t)
	e := errorOf(t, callJSON(t, tool, `{"target":"workbook","path":"/x/a.xlsx"}`))
	checkErr(t, e, wantErr{code: CodeResourceUnavailable, target: tWorkbook})
}

// TestBusyWorkbookSaysWhenToRetry: a read refused for want of a workbook
// slot carries the profiler's wait as details.retryAfterMs.
func TestBusyWorkbookSaysWhenToRetry(t *testing.T) {
	t.Parallel()
	busy := &workbook.Error{Kind: workbook.KindUnavailable, Message: "too many workbook reads in progress", RetryAfter: time.Second}
	tool, _ := newWorkbookTool(t, &stubBooks{err: busy})
	e := errorOf(t, callJSON(t, tool, `{"target":"workbook","path":"/x/a.xlsx"}`))
	checkErr(t, e, wantErr{code: CodeResourceUnavailable, target: tWorkbook, message: busy.Message})
	if e.Details["retryAfterMs"] != int64(1000) {
		t.Errorf("details %v, want retryAfterMs 1000", e.Details)
	}
}
