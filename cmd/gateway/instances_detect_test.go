// SPDX-License-Identifier: Apache-2.0

package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
)

// slowHealth delays a Dagu's health answers, which capability detection
// asks first: the instance stays undetected that long.
type slowHealth struct {
	next  http.Handler
	delay time.Duration
}

func (s slowHealth) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if strings.HasSuffix(r.URL.Path, "/health") {
		time.Sleep(s.delay)
	}
	s.next.ServeHTTP(w, r)
}

// TestInstanceReadsInItsDialectFromTheStart: an instance of an older Dagu
// (1.29) whose capability detection is slow answers its first read in its
// own release's dialect. An instance is built at start-up and again on
// every reload that changes it, so a read must not get the current
// release's dialect (which 1.29 answers with "no DAG-runs") meanwhile.
func TestInstanceReadsInItsDialectFromTheStart(t *testing.T) {
	t.Parallel()
	fake := fakedagu.New(fakedagu.Options{APIKey: stagingKey, Profile: fakedagu.Profile129, RecordedOnly: true})
	srv := httptest.NewServer(slowHealth{next: fake, delay: 700 * time.Millisecond})
	t.Cleanup(srv.Close)
	dir := t.TempDir()
	keyFile := filepath.Join(dir, "staging.key")
	if err := os.WriteFile(keyFile, []byte(stagingKey+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "instances.yaml")
	file := fmt.Sprintf("instances:\n  - name: staging\n    url: %s\n    apiKeyFile: %s\n", srv.URL, keyFile)
	if err := os.WriteFile(path, []byte(file), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := resolveFrom(t, []string{"--instances", path, "--auth-token", goodToken}, nil)
	if err != nil {
		t.Fatal(err)
	}
	base := serveConfig(t, cfg)
	latestRunID(t, connectHTTP(t, base+"/dagu/staging/mcp", goodToken))
}
