// SPDX-License-Identifier: Apache-2.0

package main

import (
	"net/http"
	"regexp"
	"strings"
	"testing"
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
	demo := startDemo(t, "--log-level", "error", "--dagu-api-key", key)
	stdout := &demo.stdout
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
	demo.stop(t)
}

// TestDemoBannerDoctorLineWorks runs `demo` without a key, then doctor
// with the URL and key of the banner's doctor line: the demo Dagu accepts
// it.
func TestDemoBannerDoctorLineWorks(t *testing.T) {
	t.Parallel()
	demo := startDemo(t, "--log-level", "error")
	stdout := &demo.stdout
	m := bannerDoctorLine.FindStringSubmatch(stdout.String())
	if m == nil {
		t.Fatalf("no doctor line in:\n%s", stdout.String())
	}
	code, out, _ := runCommand(t, map[string]string{"DAGU_URL": m[1], "DAGU_API_KEY": m[2]}, "doctor")
	if code != 0 || !strings.Contains(out, "the API key is accepted") {
		t.Errorf("the banner's doctor line: exit %d\n%s", code, out)
	}
	demo.stop(t)
}
