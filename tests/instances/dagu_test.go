// SPDX-License-Identifier: Apache-2.0

//go:build instances

package instances

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
)

// dagu is one Dagu server behind the gateway: a fake this process serves
// (with a front that records what reached it) or a real one.
type dagu struct {
	url     string // base URL, without the API base
	key     string // a key with the rest_api surface
	apiBase string // "/api/v1" or "/api/v2"
	front   *recordingFront
}

// recordingFront serves a fake Dagu and records, for every request, its
// path and the credential it carried (at most maxRecorded of each).
type recordingFront struct {
	fake        *fakedagu.Server
	mu          sync.Mutex
	paths       map[string]bool
	credentials map[string]bool
}

const maxRecorded = 10_000

func (f *recordingFront) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	if len(f.paths) < maxRecorded {
		f.paths[r.URL.Path] = true
	}
	if len(f.credentials) < maxRecorded {
		f.credentials[r.Header.Get("Authorization")] = true
	}
	f.mu.Unlock()
	f.fake.ServeHTTP(w, r)
}

// sawCredential reports whether any request carried the bearer key.
func (f *recordingFront) sawCredential(key string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	for c := range f.credentials {
		if strings.Contains(c, key) {
			return true
		}
	}
	return false
}

// newFake serves a fake Dagu of the profile that accepts key; it stops
// when the test ends.
func newFake(t *testing.T, profile fakedagu.Profile, key string) *dagu {
	t.Helper()
	front := &recordingFront{
		fake:        fakedagu.New(fakedagu.Options{Profile: profile, APIKey: key}),
		paths:       map[string]bool{},
		credentials: map[string]bool{},
	}
	srv := httptest.NewServer(front)
	t.Cleanup(srv.Close)
	base := "/api/v1"
	if profile == fakedagu.Profile129 || profile == fakedagu.Profile117 {
		base = "/api/v2"
	}
	return &dagu{url: srv.URL, key: key, apiBase: base, front: front}
}

// currentDagu is the real Dagu of INSTANCES_DAGU_URL, else a fake of the
// current release.
func currentDagu(t *testing.T, fakeKey string) *dagu {
	t.Helper()
	url := os.Getenv("INSTANCES_DAGU_URL")
	if url == "" {
		return newFake(t, fakedagu.ProfileCurrent, fakeKey)
	}
	base := os.Getenv("INSTANCES_DAGU_API")
	if base == "" {
		base = "/api/v1"
	}
	return &dagu{url: strings.TrimRight(url, "/"), key: os.Getenv("INSTANCES_DAGU_KEY"), apiBase: base}
}

// hasRun reports whether the Dagu itself answers 200 for the run of the
// DAG, asked directly on its REST API with its own key.
func (d *dagu) hasRun(t *testing.T, name, runID string) bool {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, d.url+d.apiBase+"/dag-runs/"+name+"/"+runID, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+d.key)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("ask %s for run %s: %v", d.url, runID, err)
	}
	defer res.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(res.Body, 1<<20))
	return res.StatusCode == http.StatusOK
}

// sawPrefix reports whether a request path started with prefix.
func (f *recordingFront) sawPrefix(prefix string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	for p := range f.paths {
		if strings.HasPrefix(p, prefix) {
			return true
		}
	}
	return false
}
