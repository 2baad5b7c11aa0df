// SPDX-License-Identifier: Apache-2.0

package main

import (
	"encoding/json"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
)

// TestInitializeAdvertisesNoListChanged reads the capabilities of a real
// initialize result over Streamable HTTP: the stateless server can never
// send list_changed notifications, so no feature may promise them.
func TestInitializeAdvertisesNoListChanged(t *testing.T) {
	t.Parallel()
	base := startServe(t, fakedagu.Options{RecordedOnly: true}, "--auth-token", goodToken)
	cs := connectHTTP(t, base+"/mcp", goodToken)
	raw, err := json.Marshal(cs.InitializeResult().Capabilities)
	if err != nil {
		t.Fatal(err)
	}
	var caps map[string]map[string]any
	if err := json.Unmarshal(raw, &caps); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		capability string
		advertised bool
	}{
		{"tools", true},
		{"resources", true},
		{"prompts", true},
		{"logging", false},
	}
	for _, tt := range tests {
		t.Run(tt.capability, func(t *testing.T) {
			got, advertised := caps[tt.capability]
			if advertised != tt.advertised {
				t.Fatalf("%s advertised = %v, want %v (capabilities %s)", tt.capability, advertised, tt.advertised, raw)
			}
			if listChanged, ok := got["listChanged"]; ok && listChanged != false {
				t.Errorf("%s.listChanged = %v (capabilities %s)", tt.capability, listChanged, raw)
			}
			if subscribe, ok := got["subscribe"]; ok && subscribe != false {
				t.Errorf("%s.subscribe = %v: nothing could deliver updates", tt.capability, subscribe)
			}
		})
	}
}
