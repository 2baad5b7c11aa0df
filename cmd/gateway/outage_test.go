// SPDX-License-Identifier: Apache-2.0

package main

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu/fakedagutest"
)

// TestReadinessShowsAnOutage (issue 21, row "Dagu outage"): while Dagu
// answers 5xx, /readyz's detail shows the outage with its failing route
// and count; once Dagu answers again it is gone.
//
// The only calls to Dagu during the outage must be the test's own: the
// capability detection serve starts in the background also calls Dagu, and
// a detection call failing after the read would change the reported route,
// one succeeding would end the outage early, and one failing late would
// start it again after the recovery. So the test waits until /readyz
// reports the detected capabilities, which the adapter stores after every
// detection call has returned. Dagu runs without a key so that detection
// makes no further call after that (with a key it then reads the key's
// role).
func TestReadinessShowsAnOutage(t *testing.T) {
	t.Parallel()
	fake, daguURL := fakedagutest.Start(t, fakedagu.Options{RecordedOnly: true})
	cfg, err := resolveFrom(t, []string{"--dagu-url", daguURL}, nil)
	if err != nil {
		t.Fatal(err)
	}
	base := serveConfig(t, cfg)
	readyz := func() (int, map[string]any) {
		t.Helper()
		res, err := http.Get(base + "/readyz")
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var body map[string]any
		if err := json.NewDecoder(res.Body).Decode(&body); err != nil {
			t.Fatal(err)
		}
		return res.StatusCode, body
	}
	for {
		status, body := readyz()
		if status != http.StatusOK || body["outage"] != nil {
			t.Fatalf("before the outage: %d %v", status, body)
		}
		if body["dagu"] != nil {
			break // detection is over
		}
		time.Sleep(10 * time.Millisecond) // polling pace, not a wait for the result
	}
	fake.Inject(fakedagu.Fault{Route: "*", Status: http.StatusBadGateway})
	// The probe is cached for a few seconds: a read makes the failing calls.
	cs := connectHTTP(t, base+"/mcp", "")
	callTool(t, cs, `{"target":"dags"}`)
	_, body := readyz()
	outage, _ := body["outage"].(map[string]any)
	if outage == nil || outage["failures"].(float64) < 1 || outage["route"] != "/dags" || outage["outcome"] != "5xx" {
		t.Fatalf("during the outage: %v", body)
	}
	fake.ClearFaults()
	callTool(t, cs, `{"target":"dags"}`)
	if _, body := readyz(); body["outage"] != nil {
		t.Fatalf("after the outage: %v", body)
	}
}
