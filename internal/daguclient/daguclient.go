// SPDX-License-Identifier: Apache-2.0

// Package daguclient turns the gateway's settings for one Dagu server into
// the REST client's configuration.
package daguclient

import (
	"log/slog"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/dagu-mcp-gateway/gateway/internal/config"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient"
)

// Config is the REST client's configuration of cfg's Dagu server for the
// gateway of version, its metrics registered with reg; the caps it may
// share with other clients (memory, budgets) are the caller's to add.
func Config(cfg config.Config, version string, log *slog.Logger, reg prometheus.Registerer) restclient.Config {
	return restclient.Config{
		BaseURL:            cfg.DaguURL,
		Key:                KeySource(cfg),
		Timeout:            cfg.UpstreamTimeout,
		MaxResponseBytes:   cfg.MaxResponseBytes,
		BodyBudget:         cfg.UpstreamBodyBudget,
		CAFile:             cfg.DaguCAFile,
		InsecureSkipVerify: cfg.DaguInsecureSkipVerify,
		UserAgent:          "dagu-mcp-gateway/" + version,
		Logger:             log,
		Metrics:            reg,
		Concurrency:        cfg.UpstreamConcurrency,
		Compression:        restclient.Compression(cfg.UpstreamCompression),
		Passthrough:        cfg.Passthrough(),
	}
}

// KeySource is where the gateway's Dagu key comes from: the key file when
// one is set (read again as it changes), else the key itself.
func KeySource(cfg config.Config) restclient.KeySource {
	if cfg.DaguAPIKeyFile != "" {
		return restclient.FileKey(cfg.DaguAPIKeyFile)
	}
	return restclient.StaticKey(cfg.DaguAPIKey)
}
