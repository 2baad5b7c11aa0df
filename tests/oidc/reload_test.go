// SPDX-License-Identifier: Apache-2.0

//go:build oidc

package oidc

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// reloadWait bounds the wait for the gateway to read a changed policy.
const reloadWait = 20 * time.Second

// TestPolicyChangesWithoutARestart: a person's token keeps working while
// the policy file changes under the running gateway; the rule's new
// targets apply once the file is read again, and a broken version is
// reported and keeps the last good one.
func TestPolicyChangesWithoutARestart(t *testing.T) {
	s := startSingle(t)
	endpoint := s.gw.Base + "/mcp"
	analyst := idp.person("analysts read DAGs only", "bob", endpoint, "", "analysts")
	bob := visitWithGoSDK(t, analyst)
	if code := readCode(t, endpoint, bob, readRuns); code != "unauthorized" {
		t.Fatalf("before the change, runs answer %q; want unauthorized", code)
	}
	replace(t, s.policy, strings.Replace(singlePolicy, "targets: [dags, dag]", `targets: ["*"]`, 1))
	if !eventually(func() bool { return readCode(t, endpoint, bob, readRuns) == "" }) {
		t.Fatal("the analysts' new targets never applied")
	}
	replace(t, s.policy, "rules:\n  - name: analysts\n    groups: [analysts]\n") // no targets: refused
	time.Sleep(2 * time.Second)                                                  // give the watcher time to read it
	if code := readCode(t, endpoint, bob, readRuns); code != "" {
		t.Errorf("after a broken policy, runs answer %q; want the last good policy's answer", code)
	}
}

// readCode calls dagu_read with args at endpoint with the bearer and
// returns the contract's error code ("" for an answer).
func readCode(t *testing.T, endpoint, bearer, args string) string {
	t.Helper()
	body := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"dagu_read","arguments":` + args + `}}`
	res, text := post(t, endpoint, bearer, body)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("tools/call: %d %.300s", res.StatusCode, text)
	}
	var msg struct {
		Result struct {
			IsError           bool `json:"isError"`
			StructuredContent struct {
				Code string `json:"code"`
			} `json:"structuredContent"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(text), &msg); err != nil {
		t.Fatalf("tools/call: %v: %.300s", err, text)
	}
	if !msg.Result.IsError {
		return ""
	}
	return msg.Result.StructuredContent.Code
}

// replace writes text to a new file beside path and renames it over path,
// as an operator (or Kubernetes) replaces a file whole.
func replace(t *testing.T, path, text string) {
	t.Helper()
	tmp := filepath.Join(filepath.Dir(path), ".next-"+filepath.Base(path))
	if err := os.WriteFile(tmp, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}

// eventually polls cond every 100 ms until it holds or reloadWait passes.
func eventually(cond func() bool) bool {
	deadline := time.Now().Add(reloadWait)
	for time.Now().Before(deadline) {
		if cond() {
			return true
		}
		time.Sleep(100 * time.Millisecond)
	}
	return cond()
}
