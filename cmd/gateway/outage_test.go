// SPDX-License-Identifier: Apache-2.0

package main

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu/fakedagutest"
)

// TestReadinessShowsAnOutage (issue 21, row "Dagu outage"): while Dagu
// answers 5xx, /readyz's detail shows the outage with its failing route
// and count; once Dagu answers again it is gone.
func TestReadinessShowsAnOutage(t *testing.T) {
	t.Parallel()
	fake, daguURL := fakedagutest.Start(t, fakedagu.Options{APIKey: fakedagutest.APIKey, RecordedOnly: true})
	cfg, err := resolveFrom(t, []string{"--dagu-url", daguURL, "--dagu-api-key", fakedagutest.APIKey}, nil)
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
	if status, body := readyz(); status != http.StatusOK || body["outage"] != nil {
		t.Fatalf("before the outage: %d %v", status, body)
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
