// SPDX-License-Identifier: Apache-2.0

package main

import (
	"log/slog"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/dagu-mcp-gateway/gateway/internal/config"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient"
)

// daguClientConfig is the REST client's configuration of cfg's Dagu
// server, its metrics registered with reg; the caps it may share with
// other clients (memory, budgets) are the caller's to add.
func daguClientConfig(cfg config.Config, log *slog.Logger, reg prometheus.Registerer) restclient.Config {
	return restclient.Config{
		BaseURL:            cfg.DaguURL,
		Key:                daguKey(cfg),
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

// daguKey is where the gateway's Dagu key comes from: the key file when
// one is set (read again as it changes), else the key itself.
func daguKey(cfg config.Config) restclient.KeySource {
	if cfg.DaguAPIKeyFile != "" {
		return restclient.FileKey(cfg.DaguAPIKeyFile)
	}
	return restclient.StaticKey(cfg.DaguAPIKey)
}
