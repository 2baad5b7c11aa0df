// SPDX-License-Identifier: Apache-2.0

package main

import (
	"log/slog"

	"github.com/dagu-mcp-gateway/gateway/internal/config"
	"github.com/dagu-mcp-gateway/gateway/internal/doctor"
)

// warnWithoutKey warns at start-up when the gateway reads Dagu with its own
// key and none is configured: every read then fails with unauthenticated
// unless Dagu's authentication is off, which doctor tells.
func warnWithoutKey(log *slog.Logger, cfg config.Config) {
	if cfg.Passthrough() || doctor.HasKey(cfg) {
		return
	}
	log.Warn("no Dagu API key is configured: reads fail unless Dagu's authentication is off; put the key in a file and set " +
		doctor.KeyFileSetting.Env + " (or set " + doctor.KeySetting.Env + "), then check with doctor")
}
