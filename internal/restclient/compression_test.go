// SPDX-License-Identifier: Apache-2.0

package restclient

import (
	"compress/gzip"
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

func TestCompressionPolicy(t *testing.T) {
	t.Parallel()
	tests := []struct {
		policy   Compression
		base     string
		identity bool
		wantErr  bool
	}{
		{CompressionAuto, "http://127.0.0.1:8080", true, false},
		{CompressionAuto, "http://[::1]:8080", true, false},
		{CompressionAuto, "http://localhost:8080/dagu", true, false},
		{CompressionAuto, "http://dagu.localhost", true, false},
		{CompressionAuto, "https://10.1.2.3", true, false},
		{CompressionAuto, "https://192.168.0.7", true, false},
		{CompressionAuto, "https://[fd00::7]", true, false},
		{"", "http://127.0.0.1", true, false},
		{CompressionAuto, "https://dagu.example.com", false, false},
		{CompressionAuto, "https://dagu.default.svc", false, false},
		{CompressionAuto, "https://8.8.8.8", false, false},
		{CompressionGzip, "http://127.0.0.1", false, false},
		{CompressionIdentity, "https://dagu.example.com", true, false},
		{"brotli", "http://127.0.0.1", false, true},
	}
	for _, tt := range tests {
		u, err := url.Parse(tt.base)
		if err != nil {
			t.Fatal(err)
		}
		got, err := tt.policy.wantsIdentity(u)
		if (err != nil) != tt.wantErr || got != tt.identity {
			t.Errorf("%q at %s: identity %v, error %v; want %v, error %v", tt.policy, tt.base, got, err, tt.identity, tt.wantErr)
		}
	}
}

// TestCompressionOnTheWire checks what each policy asks a (loopback) Dagu
// for and that both kinds of answer decode.
func TestCompressionOnTheWire(t *testing.T) {
	t.Parallel()
	tests := []struct {
		policy Compression
		asked  string
	}{
		{CompressionAuto, "identity"},
		{CompressionIdentity, "identity"},
		{CompressionGzip, "gzip"},
	}
	for _, tt := range tests {
		t.Run(string(tt.policy), func(t *testing.T) {
			t.Parallel()
			srv, rec := newServer(t, func(w http.ResponseWriter, r *http.Request) {
				if !strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
					writeJSON(w, 200, healthJSON)
					return
				}
				w.Header().Set("Content-Type", "application/json")
				w.Header().Set("Content-Encoding", "gzip")
				zw := gzip.NewWriter(w)
				_, _ = zw.Write([]byte(healthJSON))
				_ = zw.Close()
			})
			c := newTestClient(t, srv.URL, func(cfg *Config) { cfg.Compression = tt.policy })
			h, err := c.Health(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if h.Version != "1.2.3" {
				t.Errorf("version %q", h.Version)
			}
			if got := rec.all()[0].Header.Get("Accept-Encoding"); got != tt.asked {
				t.Errorf("Accept-Encoding %q, want %q", got, tt.asked)
			}
		})
	}
}

func TestUnknownCompressionIsRefused(t *testing.T) {
	t.Parallel()
	if _, err := New(Config{BaseURL: "http://127.0.0.1", Compression: "zstd"}); err == nil {
		t.Fatal("New accepted compression zstd")
	}
}
