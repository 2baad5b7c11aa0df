// SPDX-License-Identifier: Apache-2.0

package config

import (
	"strings"
	"testing"
)

// renderedAs names the settings whose key in the rendered configuration
// is not the flag's name with underscores (lists are named in the plural).
var renderedAs = map[string]string{
	"auth-token":     "auth_tokens",
	"allowed-host":   "allowed_hosts",
	"disable-target": "disabled_targets",
	"workbook-root":  "workbook_roots",
	"oidc-audience":  "oidc_audiences",
	"oidc-scope":     "oidc_scopes",
}

// TestConfigShowsEverySetting: the rendered configuration (String, %v and
// slog's LogValue) names every setting of the settings table, so a new
// setting cannot be left out of it (--gc-heap-floor, --workbook-max-memory
// and --workbook-concurrency were).
func TestConfigShowsEverySetting(t *testing.T) {
	t.Parallel()
	shown := map[string]bool{}
	for _, a := range (Config{}).redactedFields() {
		shown[a.Key] = true
	}
	for _, s := range Settings() {
		key, ok := renderedAs[s.Flag]
		if !ok {
			key = strings.ReplaceAll(s.Flag, "-", "_")
		}
		if !shown[key] {
			t.Errorf("setting --%s is not in the rendered configuration (key %q)", s.Flag, key)
		}
	}
}
