// SPDX-License-Identifier: Apache-2.0

package main

import (
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/config"
	"github.com/dagu-mcp-gateway/gateway/internal/readtool"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient"
	"github.com/dagu-mcp-gateway/gateway/internal/upstream"
)

// TestSettingDefaultsMatchTheirOwners: the settings table knows no other
// package, so the defaults and values other packages own are written there
// again; this test fails when the two drift apart.
func TestSettingDefaultsMatchTheirOwners(t *testing.T) {
	t.Parallel()
	cfg, err := resolveFrom(t, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	checks := []struct {
		name      string
		got, want any
	}{
		{"upstream-concurrency", cfg.UpstreamConcurrency, restclient.DefaultConcurrency},
		{"upstream-compression", restclient.Compression(cfg.UpstreamCompression), restclient.CompressionAuto},
		{"upstream-compression gzip", restclient.Compression(config.UpstreamCompressionGzip), restclient.CompressionGzip},
		{"upstream-compression identity", restclient.Compression(config.UpstreamCompressionIdentity), restclient.CompressionIdentity},
		{"upstream-body-budget", cfg.UpstreamBodyBudget, int64(restclient.DefaultBodyBudget)},
		{"list-cache-ttl", cfg.ListCacheTTL, upstream.DefaultListCacheTTL},
		{"run-cache-size", cfg.RunCacheSize, int64(upstream.DefaultRunCacheBytes)},
		{"max-answer-bytes", cfg.MaxAnswerBytes, int64(readtool.DefaultMaxAnswerBytes)},
		{"text-content", cfg.TextContent, readtool.TextContentContract},
		{"text-content json", config.TextContentJSON, readtool.TextContentJSON},
		{"resource-links", cfg.ResourceLinks, readtool.ResourceLinksContract},
		{"resource-links omit", config.ResourceLinksOmit, readtool.ResourceLinksOmit},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s: the settings table says %v, its owner %v", c.name, c.got, c.want)
		}
	}
}
