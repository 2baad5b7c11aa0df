// SPDX-License-Identifier: Apache-2.0

package restclient

import (
	"context"
	"encoding/pem"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/testkit"
)

// writeCA writes a TLS test server's certificate as a PEM file.
func writeCA(t *testing.T, srv *httptest.Server) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "ca.pem")
	block := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})
	if err := os.WriteFile(path, block, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// writeOtherCA writes a freshly generated self-signed CA that did not sign
// the test server's certificate (all httptest servers share one cert).
func writeOtherCA(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "other-ca.pem")
	if err := os.WriteFile(path, testkit.CAPEM(t), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestTLS(t *testing.T) {
	t.Parallel()
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { writeJSON(w, 200, healthJSON) }))
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // failed handshakes are expected
	srv.StartTLS()
	t.Cleanup(srv.Close)

	tests := []struct {
		name     string
		caFile   string
		insecure bool
		want     string
	}{
		{"trusted CA file", writeCA(t, srv), false, ""},
		{"wrong CA file", writeOtherCA(t), false, "tls"},
		{"no CA file", "", false, "tls"},
		{"verification disabled", "", true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newTestClient(t, srv.URL, func(cfg *Config) {
				cfg.CAFile = tt.caFile
				cfg.InsecureSkipVerify = tt.insecure
			})
			_, err := c.Health(context.Background())
			if kindOf(err) != tt.want {
				t.Fatalf("err = %v, want kind %v", err, tt.want)
			}
		})
	}
}

func TestBadCAFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	notPEM := filepath.Join(dir, "junk.pem")
	if err := os.WriteFile(notPEM, []byte("not a certificate"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{notPEM, filepath.Join(dir, "missing.pem")} {
		if _, err := New(Config{BaseURL: "https://dagu.example", CAFile: path}); err == nil {
			t.Errorf("New accepted CA file %s", filepath.Base(path))
		}
	}
}
