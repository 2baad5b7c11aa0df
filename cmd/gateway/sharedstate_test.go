// SPDX-License-Identifier: Apache-2.0

package main

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu/fakedagutest"
	"github.com/dagu-mcp-gateway/gateway/internal/sharedstate/redistest"
)

// finishedRun is a recorded run of the fake that ended (failed).
const finishedRun = `{"target":"run","name":"failing_job","dagRunId":"0356UUn8VwcWFuh5L8qwbp"}`

func TestDoctorReportsSharedState(t *testing.T) {
	srv := redistest.Start(t, redistest.WithPassword("doctor-secret-42"))
	pw := filepath.Join(t.TempDir(), "redis-password")
	if err := os.WriteFile(pw, []byte("doctor-secret-42\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, daguURL := fakedagutest.Start(t, fakedagu.Options{APIKey: fakedagutest.APIKey})
	env := map[string]string{"DAGU_URL": daguURL, "DAGU_API_KEY": fakedagutest.APIKey}

	code, out, _ := runCommand(t, env, "doctor")
	if code != 0 || strings.Contains(out, "Shared state") || !strings.HasPrefix(out, "Dagu:") {
		t.Fatalf("doctor without shared state opens with its Dagu, naming no shared state: %d\n%s", code, out)
	}
	code, out, _ = runCommand(t, env, "doctor", "--shared-state", srv.URL(), "--shared-state-password-file", pw)
	if code != 0 || !strings.Contains(out, "Shared state: redis ") || !strings.Contains(out, "at "+srv.URL()+", reachable") {
		t.Fatalf("doctor with shared state: %d\n%s", code, out)
	}
	// Nothing listens on a port the kernel just handed out and took back.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := "redis://:url-secret-77@" + l.Addr().String()
	_ = l.Close()
	code, out, errOut := runCommand(t, env, "doctor", "--shared-state", dead)
	if code != 0 || !strings.Contains(out, "Shared state: unreachable at redis://:xxxxx@") {
		t.Fatalf("doctor with an unreachable shared state must report it and still pass: %d\n%s", code, out)
	}
	for _, s := range []string{out, errOut} {
		if strings.Contains(s, "url-secret-77") || strings.Contains(s, "doctor-secret-42") {
			t.Fatalf("doctor printed a password:\n%s", s)
		}
	}
}

// TestServedGatewaysShareState runs three gateways in front of one fake
// Dagu with one real Redis: a finished run one gateway read is served by
// the others without a call to Dagu, and one caller spread over the three
// is admitted the rate limit's burst once, not three times.
func TestServedGatewaysShareState(t *testing.T) {
	srv := redistest.Start(t)
	fake, daguURL := fakedagutest.Start(t, fakedagu.Options{APIKey: fakedagutest.APIKey})
	var sessions []func(string) map[string]any
	// The longest operation timeout: on a loaded machine a timed-out
	// operation would hand the decision to a gateway's own limit.
	for range 3 {
		// One token per ~17 minutes: only the burst is admitted during the
		// test, however slow the machine.
		cfg, err := resolveFrom(t, []string{"--dagu-url", daguURL, "--dagu-api-key", fakedagutest.APIKey,
			"--shared-state", srv.URL(), "--shared-state-timeout", "5s", "--rate-limit", "0.001", "--rate-burst", "5"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		cs := connectHTTP(t, serveConfig(t, cfg)+"/mcp", "")
		sessions = append(sessions, func(args string) map[string]any { return callTool(t, cs, args) })
	}

	// Each gateway detects Dagu's capabilities in the background at start;
	// only the run reads count.
	runReads := func() int {
		n := 0
		for _, r := range fake.Requests() {
			if strings.Contains(r.Path, "/dag-runs/") {
				n++
			}
		}
		return n
	}
	fake.Reset()
	first := sessions[0](finishedRun)
	if first["code"] != nil || runReads() == 0 {
		t.Fatalf("first gateway: %v after %d run reads", first, runReads())
	}
	fake.Reset()
	for i, call := range sessions[1:3] {
		got := call(finishedRun)
		if got["code"] != nil || got["data"] == nil {
			t.Fatalf("gateway %d: %v", i+2, got)
		}
	}
	if n := runReads(); n != 0 {
		t.Fatalf("the other gateways read the run from Dagu %d times after the first had read it", n)
	}

	admitted := 3 // the reads above
	for i := range 12 {
		got := sessions[i%3](`{"target":"dags"}`)
		if got["code"] == nil {
			admitted++
		}
	}
	if admitted != 5 {
		// Without shared state each gateway would admit its own burst: 15.
		t.Fatalf("one caller over three gateways was admitted %d reads; the cluster-wide burst is 5", admitted)
	}
}
