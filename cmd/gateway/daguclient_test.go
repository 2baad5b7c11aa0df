// SPDX-License-Identifier: Apache-2.0

package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/config"
)

// TestDaguKeyPrefersTheKeyFile: a key file set wins over a key given
// directly, and without either no key is sent.
func TestDaguKeyPrefersTheKeyFile(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "key")
	if err := os.WriteFile(file, []byte("from-file\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		key, path string
		want      string
	}{
		{"file", "", file, "from-file"},
		{"file over key", "direct", file, "from-file"},
		{"key", "direct", "", "direct"},
		{"none", "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := daguKey(config.Config{DaguAPIKey: tt.key, DaguAPIKeyFile: tt.path}).Key()
			if err != nil || got != tt.want {
				t.Errorf("key %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

// TestConfigCarriesTheServerSettings: the client's configuration is the
// server's settings, and the user agent names the gateway's version.
func TestConfigCarriesTheServerSettings(t *testing.T) {
	t.Parallel()
	cfg := config.Config{DaguURL: "http://dagu.example", DaguCAFile: "ca.pem", UpstreamConcurrency: 7, UpstreamAuth: config.UpstreamAuthPassthrough}
	rc := daguClientConfig(cfg, nil, nil)
	if rc.BaseURL != cfg.DaguURL || rc.CAFile != "ca.pem" || rc.Concurrency != 7 || !rc.Passthrough || rc.UserAgent != "dagu-mcp-gateway/"+version {
		t.Errorf("config %+v", rc)
	}
}
