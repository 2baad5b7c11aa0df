// SPDX-License-Identifier: Apache-2.0

package readtool

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/membudget"
	"github.com/dagu-mcp-gateway/gateway/internal/model"
)

// bigLogUpstream answers log reads with generated windows of long lines.
type bigLogUpstream struct {
	stubUpstream
	stdout, stderr, scheduler string
	dags                      int // DAG list entries with long names
}

func (b *bigLogUpstream) GetStepLog(_ context.Context, _ model.StepAddress, q model.LogQuery) (*model.StepLog, error) {
	stream := "stdout"
	if q.Stream != "" {
		stream = q.Stream
	}
	lines := strings.Count(b.stdout, "\n") + 1
	return &model.StepLog{StdoutContent: b.stdout, StderrContent: b.stderr, LineCount: lines, TotalLines: 20000, Stream: stream}, nil
}

func (b *bigLogUpstream) GetRunLogs(context.Context, model.RunAddress, model.LogQuery) (*model.RunLogs, error) {
	lines := strings.Count(b.scheduler, "\n") + 1
	return &model.RunLogs{SchedulerLog: model.LogWindow{Content: b.scheduler, LineCount: lines, TotalLines: lines}, StepLogs: []model.StepLogInfo{}}, nil
}

func (b *bigLogUpstream) ListDAGs(context.Context, model.DAGListQuery) (*model.DAGCollection, error) {
	items := make([]model.DAGItem, b.dags)
	for i := range items {
		items[i] = model.DAGItem{Name: fmt.Sprintf("dag-%06d-%s", i, strings.Repeat("n", 200))}
	}
	return &model.DAGCollection{Items: items}, nil
}

// numberedLines are lines from..to (1-based) of width characters each.
func numberedLines(from, to, width int, fill string) string {
	var b strings.Builder
	for i := from; i <= to; i++ {
		line := fmt.Sprintf("line %d ", i)
		line += strings.Repeat(fill, (width-len(line))/len(fill))
		if i > from {
			b.WriteByte('\n')
		}
		b.WriteString(line)
	}
	return b.String()
}

func newCappedTool(t *testing.T, up *bigLogUpstream, maxAnswer int) *Tool {
	t.Helper()
	tool, err := New(Options{Upstream: up, References: stubRefs{}, MaxAnswerBytes: maxAnswer})
	if err != nil {
		t.Fatal(err)
	}
	return tool
}

// TestLogAnswersAreCutOnWholeLines: a log window over the answer cap keeps
// the end of the window its query asked for, on whole lines, with hasMore
// and the query of a window that fits; escaped text still fits.
func TestLogAnswersAreCutOnWholeLines(t *testing.T) {
	t.Parallel()
	const limit = 64 << 10
	tests := []struct {
		name      string
		up        *bigLogUpstream
		args      string
		content   func(map[string]any) (string, map[string]any)
		firstLine string // the first kept line starts with this
		lastLine  string // the last kept line starts with this
		query     string // the cut's narrowing query, with its line count as %d
	}{
		{"tail keeps the last lines",
			&bigLogUpstream{stdout: numberedLines(1, 1000, 200, "x")},
			`{"target":"step_log","name":"a","dagRunId":"r","stepName":"s","query":"tail=1000"}`,
			stepStdout, "", "line 1000 ", "tail=%d"},
		{"default window keeps the last lines",
			&bigLogUpstream{stdout: numberedLines(1, 1000, 200, "x")},
			`{"target":"step_log","name":"a","dagRunId":"r","stepName":"s"}`,
			stepStdout, "", "line 1000 ", "tail=%d"},
		{"head keeps the first lines",
			&bigLogUpstream{stdout: numberedLines(1, 1000, 200, "x")},
			`{"target":"step_log","name":"a","dagRunId":"r","stepName":"s","query":"head=1000"}`,
			stepStdout, "line 1 ", "", "head=%d"},
		{"offset keeps the first lines from the offset",
			&bigLogUpstream{stdout: numberedLines(501, 1500, 200, "x")},
			`{"target":"step_log","name":"a","dagRunId":"r","stepName":"s","query":"stream=stdout&offset=501&limit=1000"}`,
			stepStdout, "line 501 ", "", "stream=stdout&offset=501&limit=%d"},
		{"escaped text still fits",
			&bigLogUpstream{stdout: numberedLines(1, 1000, 200, "<\"")},
			`{"target":"step_log","name":"a","dagRunId":"r","stepName":"s","query":"tail=1000"}`,
			stepStdout, "", "line 1000 ", "tail=%d"},
		{"run logs keep the newest scheduler lines",
			&bigLogUpstream{scheduler: numberedLines(1, 1000, 200, "x")},
			`{"target":"run_logs","name":"a","dagRunId":"r","query":"tail=1000"}`,
			schedulerContent, "", "line 1000 ", "tail=%d"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			res := callJSON(t, newCappedTool(t, tt.up, limit), tt.args)
			if res.IsError {
				t.Fatalf("refused: %+v", res.StructuredContent)
			}
			encoded, _ := json.Marshal(res.StructuredContent)
			if len(encoded) > limit+1024 {
				t.Fatalf("answer is %d bytes, cap %d", len(encoded), limit)
			}
			text, window := tt.content(structured(t, res))
			lines := strings.Split(text, "\n")
			for _, l := range lines {
				if !strings.HasPrefix(l, "line ") || len(l) < 190 {
					t.Fatalf("a kept line is not whole: %.40q (%d bytes)", l, len(l))
				}
			}
			if tt.firstLine != "" && !strings.HasPrefix(lines[0], tt.firstLine) {
				t.Fatalf("first kept line %.20q, want %q", lines[0], tt.firstLine)
			}
			if tt.lastLine != "" && !strings.HasPrefix(lines[len(lines)-1], tt.lastLine) {
				t.Fatalf("last kept line %.20q, want %q", lines[len(lines)-1], tt.lastLine)
			}
			cut, _ := window["cut"].(map[string]any)
			if window["hasMore"] != true || window["lineCount"] != float64(len(lines)) || cut == nil {
				t.Fatalf("window: hasMore %v lineCount %v (kept %d) cut %v", window["hasMore"], window["lineCount"], len(lines), cut)
			}
			if want := fmt.Sprintf(tt.query, len(lines)); cut["query"] != want || cut["leftOutLines"] != float64(1000-len(lines)) {
				t.Fatalf("cut = %v, want query %q and %d left out", cut, want, 1000-len(lines))
			}
		})
	}
}

func stepStdout(out map[string]any) (string, map[string]any) {
	data := out["data"].(map[string]any)
	return data["stdoutContent"].(string), data
}

func schedulerContent(out map[string]any) (string, map[string]any) {
	window := out["data"].(map[string]any)["schedulerLog"].(map[string]any)
	return window["content"].(string), window
}

// TestLogsWithinTheCapAreUntouched: a window under the cap has no cut.
func TestLogsWithinTheCapAreUntouched(t *testing.T) {
	t.Parallel()
	up := &bigLogUpstream{stdout: numberedLines(1, 10, 200, "x")}
	data := structured(t, callJSON(t, newCappedTool(t, up, 64<<10), `{"target":"step_log","name":"a","dagRunId":"r","stepName":"s"}`))["data"].(map[string]any)
	if data["stdoutContent"] != up.stdout || data["cut"] != nil || data["hasMore"] != false {
		t.Fatalf("untouched log changed: cut %v hasMore %v", data["cut"], data["hasMore"])
	}
}

// TestOneLineTooLongIsShownInPart: a single line longer than the cap is
// kept in part, and the cut says so.
func TestOneLineTooLongIsShownInPart(t *testing.T) {
	t.Parallel()
	up := &bigLogUpstream{stdout: strings.Repeat("z", 200<<10)}
	data := structured(t, callJSON(t, newCappedTool(t, up, 64<<10), `{"target":"step_log","name":"a","dagRunId":"r","stepName":"s","query":"tail=1"}`))["data"].(map[string]any)
	cut, _ := data["cut"].(map[string]any)
	if len(data["stdoutContent"].(string)) > partialLineBytes+8 || cut == nil || !strings.Contains(cut["note"].(string), "shown in part") {
		t.Fatalf("content %d bytes, cut %v", len(data["stdoutContent"].(string)), cut)
	}
}

// TestDataOverTheCapWithoutLogTextIsRefused: a listing over the cap is
// refused with the parameter that pages it.
func TestDataOverTheCapWithoutLogTextIsRefused(t *testing.T) {
	t.Parallel()
	up := &bigLogUpstream{dags: 1000}
	e := errorOf(t, callJSON(t, newCappedTool(t, up, 64<<10), `{"target":"dags"}`))
	if e.Code != CodeResourceUnavailable || !strings.Contains(e.Message, "perPage") {
		t.Fatalf("error = %+v", e)
	}
}

// TestAnswersReserveTheirMemory: an answer grows the request's
// reservation, and one the budget cannot take is refused with
// retryAfterMs, nothing taken.
func TestAnswersReserveTheirMemory(t *testing.T) {
	t.Parallel()
	up := &bigLogUpstream{stdout: numberedLines(1, 100, 200, "x")}
	tool := newCappedTool(t, up, 0)
	args := json.RawMessage(`{"target":"step_log","name":"a","dagRunId":"r","stepName":"s"}`)
	tests := []struct {
		name    string
		budget  int64
		refused bool
	}{
		{"fits", 1 << 20, false},
		{"does not fit", 1 << 10, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			budget := membudget.New("test", tt.budget)
			res, err := budget.Reserve(100)
			if err != nil {
				t.Fatal(err)
			}
			out := tool.Call(membudget.WithReservation(context.Background(), res), args)
			if out.IsError != tt.refused {
				t.Fatalf("isError = %v: %+v", out.IsError, out.StructuredContent)
			}
			if tt.refused {
				e := out.StructuredContent.(*Error)
				if e.Code != CodeResourceUnavailable || e.Details["retryAfterMs"] == nil || !errors.Is(e, membudget.ErrSpent) || res.Held() != 100 {
					t.Fatalf("refusal = %+v, held %d", e, res.Held())
				}
				return
			}
			if res.Held() < 100+int64(len(up.stdout)) {
				t.Fatalf("held %d after an answer of %d bytes of text", res.Held(), len(up.stdout))
			}
			res.Release()
			if budget.InUse() != 0 {
				t.Fatalf("in use after release: %d", budget.InUse())
			}
		})
	}
}
