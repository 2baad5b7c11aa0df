// SPDX-License-Identifier: Apache-2.0

// Package readpath_test measures which source files one read visits:
// scripts/readpath.sh runs TestReadPathIdle and TestReadPathStepLog with
// statement counts and counts the files whose counts differ. Neither test
// asserts anything of its own; they only build and read.
package readpath_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu/fakedagutest"
	"github.com/dagu-mcp-gateway/gateway/internal/readtool"
	"github.com/dagu-mcp-gateway/gateway/internal/reference"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient"
	"github.com/dagu-mcp-gateway/gateway/internal/upstream"
)

// recordedNow is the day the fake's recordings were made.
var recordedNow = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

const testKey = "dagu_gatewaytestkey0123456789"

// buildReadPath builds the read path the gateway serves with its default
// cache settings (spec and name caches, the list micro-cache and the run
// cache on; no shared state): readtool over upstream (with its caches)
// over restclient, in front of the fake Dagu, capabilities detected.
func buildReadPath(t *testing.T) *readtool.Tool {
	t.Helper()
	_, baseURL := fakedagutest.Start(t, fakedagu.Options{APIKey: testKey, Now: func() time.Time { return recordedNow }})
	client, err := restclient.New(restclient.Config{BaseURL: baseURL, Key: restclient.StaticKey(testKey), Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	adapter, err := upstream.NewAdapter(upstream.AdapterOptions{
		Client: client, Now: func() time.Time { return recordedNow },
		DAGCacheTTL: upstream.DefaultDAGCacheTTL, ListCacheTTL: upstream.DefaultListCacheTTL, RunCacheBytes: upstream.DefaultRunCacheBytes,
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := adapter.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	refs, err := reference.New(reference.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tool, err := readtool.New(readtool.Options{Upstream: adapter, References: refs})
	if err != nil {
		t.Fatal(err)
	}
	return tool
}

// TestReadPathIdle builds the read path and reads nothing: the baseline.
func TestReadPathIdle(t *testing.T) {
	buildReadPath(t)
}

// TestReadPathStepLog builds the read path and makes one cold step_log
// read of a finished run.
func TestReadPathStepLog(t *testing.T) {
	tool := buildReadPath(t)
	args := json.RawMessage(`{"target":"step_log","name":"failing_job","dagRunId":"0356UUn8VwcWFuh5L8qwbp","stepName":"explode"}`)
	if res := tool.Call(context.Background(), args); res.IsError {
		t.Fatalf("the read failed: %+v", res.Content)
	}
}
