// SPDX-License-Identifier: Apache-2.0

package main

import (
	"context"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/testkit"
)

var (
	demoDaguURL      = regexp.MustCompile(`Demo Dagu \(recorded data\):\s*(http://127\.0\.0\.1:\d+)`)
	bannerDoctorLine = regexp.MustCompile(`DAGU_URL=(\S+) DAGU_API_KEY=(\S+) .* doctor\n`)
)

// TestDemoDaguAcceptsTheGivenKey starts `gateway demo --dagu-api-key` and
// checks that its Dagu accepts that key, and only that key, so doctor and
// stdio can be pointed at the printed URL.
func TestDemoDaguAcceptsTheGivenKey(t *testing.T) {
	t.Parallel()
	const key = "dagu_demo_key_chosen_by_the_test"
	var stdout testkit.LogBuffer
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"demo", "--listen", "127.0.0.1:0", "--log-level", "error", "--dagu-api-key", key}, environment{
			stdin: strings.NewReader(""), stdout: &stdout, stderr: io.Discard, getenv: func(string) string { return "" },
		})
	}()
	waitForBanner(t, &stdout, done)
	m := demoDaguURL.FindStringSubmatch(stdout.String())
	if m == nil {
		t.Fatalf("no demo Dagu URL in:\n%s", stdout.String())
	}
	if strings.Contains(stdout.String(), key) {
		t.Error("the banner echoes the key")
	}
	tests := []struct {
		name string
		auth string
		want int
	}{
		{"the given key", "Bearer " + key, http.StatusOK},
		{"another key", "Bearer dagu_some_other_key", http.StatusUnauthorized},
		{"no key", "", http.StatusUnauthorized},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, _ := http.NewRequest(http.MethodGet, m[1]+"/api/v1/dags", nil)
			if tt.auth != "" {
				req.Header.Set("Authorization", tt.auth)
			}
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			_ = res.Body.Close()
			if res.StatusCode != tt.want {
				t.Fatalf("status %d, want %d", res.StatusCode, tt.want)
			}
		})
	}
	cancel()
	// No deadline of its own: on a loaded machine any fixed one can pass;
	// a gateway that does not stop fails the test at go test's timeout,
	// with every goroutine's stack.
	if code := <-done; code != 0 {
		t.Fatalf("demo exited %d", code)
	}
}

// TestDemoBannerDoctorLineWorks runs `demo` without a key, then doctor
// with the URL and key of the banner's doctor line: the demo Dagu accepts
// it.
func TestDemoBannerDoctorLineWorks(t *testing.T) {
	t.Parallel()
	var stdout testkit.LogBuffer
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"demo", "--listen", "127.0.0.1:0", "--log-level", "error"}, environment{
			stdin: strings.NewReader(""), stdout: &stdout, stderr: io.Discard, getenv: func(string) string { return "" },
		})
	}()
	waitForBanner(t, &stdout, done)
	m := bannerDoctorLine.FindStringSubmatch(stdout.String())
	if m == nil {
		t.Fatalf("no doctor line in:\n%s", stdout.String())
	}
	code, out, _ := runCommand(t, map[string]string{"DAGU_URL": m[1], "DAGU_API_KEY": m[2]}, "doctor")
	if code != 0 || !strings.Contains(out, "the API key is accepted") {
		t.Errorf("the banner's doctor line: exit %d\n%s", code, out)
	}
	cancel()
	if code := <-done; code != 0 {
		t.Fatalf("demo exited %d", code)
	}
}
