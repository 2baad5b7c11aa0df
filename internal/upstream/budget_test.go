// SPDX-License-Identifier: Apache-2.0

package upstream

import (
	"context"
	"strings"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
)

// TestDefaultLogWindowsKeepTheByteBudget: a default window is cut to the
// last lines that fit the budget and says more exists; an explicit window
// is returned whole.
func TestDefaultLogWindowsKeepTheByteBudget(t *testing.T) {
	t.Parallel()
	env := newAdapterEnv(t, envOptions{adapter: func(o *AdapterOptions) { o.LogBudget = 100 }})
	addr := model.StepAddress{RunAddress: model.RunAddress{Name: "big_log_job", DAGRunID: "0356UUo2lMk0yUwBDR9c0n"}, StepName: "spew"}
	got, err := env.adapter.GetStepLog(context.Background(), addr, model.LogQuery{Stream: "stdout"})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.StdoutContent) > 100 || !strings.HasSuffix(got.StdoutContent, "line 20000 of the big log") || !got.HasMore ||
		got.LineCount != strings.Count(got.StdoutContent, "\n")+1 {
		t.Fatalf("default window: %d bytes, %d lines, hasMore %v", len(got.StdoutContent), got.LineCount, got.HasMore)
	}
	got, err = env.adapter.GetStepLog(context.Background(), addr, model.LogQuery{Stream: "stdout", Tail: 50})
	if err != nil {
		t.Fatal(err)
	}
	if got.LineCount != 50 || len(got.StdoutContent) <= 100 {
		t.Fatalf("explicit window was cut: %d lines, %d bytes", got.LineCount, len(got.StdoutContent))
	}
	logs, err := env.adapter.GetRunLogs(context.Background(), addr.RunAddress, model.LogQuery{})
	if err != nil {
		t.Fatal(err)
	}
	if len(logs.SchedulerLog.Content) > 100 {
		t.Fatalf("scheduler log default window is %d bytes", len(logs.SchedulerLog.Content))
	}
}
