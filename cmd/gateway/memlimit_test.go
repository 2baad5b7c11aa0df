// SPDX-License-Identifier: Apache-2.0

package main

import (
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/config"
	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu/fakedagutest"
	"github.com/dagu-mcp-gateway/gateway/internal/testkit"
)

// defaultConfig is the configuration of serve with its defaults.
func defaultConfig(t *testing.T) config.Config {
	t.Helper()
	root := newRootCommand(environment{getenv: mapEnv(nil)})
	serve, _, err := root.Find([]string{"serve"})
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Resolve(serve.Flags(), mapEnv(nil))
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// TestMemoryLimitDerivation: auto is --memory-budget, the caches' byte
// bounds (run cache, specs with --cache-ttl, lists with --list-cache-ttl,
// reference files with --reference-dir) and the baseline; a size is taken
// as it is; off and 0 set none; GOMEMLIMIT wins over all of them.
func TestMemoryLimitDerivation(t *testing.T) {
	t.Parallel()
	const mib = 1 << 20
	for _, tt := range []struct {
		name      string
		change    func(*config.Config)
		gomemlim  string
		want      int64
		source    string
		wantCache int64
	}{
		{"defaults", nil, "", 96*mib + 32*mib + 32*mib + 16*mib + 32*mib, memoryLimitDerived, 80 * mib},
		{"empty is auto", func(c *config.Config) { c.MemoryLimit = "" }, "", 208 * mib, memoryLimitDerived, 80 * mib},
		{"bigger budget and run cache", func(c *config.Config) { c.MemoryBudget, c.RunCacheSize = 256*mib, 64*mib }, "", 256*mib + 112*mib + 32*mib, memoryLimitDerived, 112 * mib},
		{"run cache off", func(c *config.Config) { c.RunCacheSize = 0 }, "", 96*mib + 48*mib + 32*mib, memoryLimitDerived, 48 * mib},
		{"dag cache off", func(c *config.Config) { c.CacheTTL = 0 }, "", 96*mib + 48*mib + 32*mib, memoryLimitDerived, 48 * mib},
		{"list cache off", func(c *config.Config) { c.ListCacheTTL = 0 }, "", 96*mib + 64*mib + 32*mib, memoryLimitDerived, 64 * mib},
		{"every cache off", func(c *config.Config) { c.CacheTTL, c.ListCacheTTL, c.RunCacheSize = 0, 0, 0 }, "", 128 * mib, memoryLimitDerived, 0},
		{"reference directory", func(c *config.Config) { c.ReferenceDir = "/srv/reference" }, "", 224 * mib, memoryLimitDerived, 96 * mib},
		{"workbooks are not in it", func(c *config.Config) { c.WorkbookMaxMemory, c.WorkbookConcurrency = 512*mib, 8 }, "", 208 * mib, memoryLimitDerived, 80 * mib},
		{"a size", func(c *config.Config) { c.MemoryLimit = "300MiB" }, "", 300 * mib, memoryLimitFlag, 0},
		{"a size in bytes", func(c *config.Config) { c.MemoryLimit = "134217728" }, "", 128 * mib, memoryLimitFlag, 0},
		{"off", func(c *config.Config) { c.MemoryLimit = "off" }, "", 0, memoryLimitOff, 0},
		{"OFF", func(c *config.Config) { c.MemoryLimit = "OFF" }, "", 0, memoryLimitOff, 0},
		{"0", func(c *config.Config) { c.MemoryLimit = "0" }, "", 0, memoryLimitOff, 0},
		{"GOMEMLIMIT over auto", nil, "200MiB", 0, memoryLimitEnv, 0},
		{"GOMEMLIMIT over a size", func(c *config.Config) { c.MemoryLimit = "300MiB" }, "1GiB", 0, memoryLimitEnv, 0},
		{"GOMEMLIMIT over off", func(c *config.Config) { c.MemoryLimit = "off" }, "off", 0, memoryLimitEnv, 0},
	} {
		cfg := defaultConfig(t)
		if tt.change != nil {
			tt.change(&cfg)
		}
		env := map[string]string{"GOMEMLIMIT": tt.gomemlim}
		got := decideMemoryLimit(cfg, func(k string) string { return env[k] })
		if got.bytes != tt.want || got.source != tt.source || got.caches != tt.wantCache {
			t.Errorf("%s: %+v, want %s from %s, caches %s", tt.name, got,
				config.FormatByteSize(tt.want), tt.source, config.FormatByteSize(tt.wantCache))
		}
		var set []int64
		applyMemoryLimit(got, func(n int64) int64 { set = append(set, n); return 0 })
		if (tt.want > 0) != (len(set) == 1) || (len(set) == 1 && set[0] != tt.want) {
			t.Errorf("%s: set %v, want %d", tt.name, set, tt.want)
		}
	}
}

// TestDefaultMemoryLimitMatchesTheDocs: the reference (the settings
// table's text) states the derived limit of the defaults, so a change of
// one of them shows here.
func TestDefaultMemoryLimitMatchesTheDocs(t *testing.T) {
	t.Parallel()
	s, ok := config.Lookup(config.FlagMemoryLimit)
	l := decideMemoryLimit(defaultConfig(t), mapEnv(nil))
	if !ok || !strings.Contains(s.Doc, fmt.Sprintf("%d MiB with the defaults", l.bytes>>20)) {
		t.Errorf("the derived default is %s; the reference says: %s", config.FormatByteSize(l.bytes), s.Doc)
	}
}

// memoryLimitLine is the start-up line about the memory limit, or nil.
func memoryLimitLine(t *testing.T, logs *testkit.LogBuffer) map[string]any {
	t.Helper()
	for _, l := range logs.JSONLines(t) {
		if l["msg"] == memoryLimitMessage {
			return l
		}
	}
	return nil
}

// TestStartupLogsTheMemoryLimit: stdio says at start-up which memory
// limit applies and sets it through the environment's setter, once.
func TestStartupLogsTheMemoryLimit(t *testing.T) {
	t.Parallel()
	_, daguURL := fakedagutest.Start(t, fakedagu.Options{APIKey: fakedagutest.APIKey})
	tests := []struct {
		name  string
		args  []string
		env   map[string]string
		set   []int64
		check func(map[string]any) bool
	}{
		{"derived", nil, nil, []int64{208 << 20}, func(l map[string]any) bool {
			return l["memory_limit_source"] == "derived" && l["memory_limit"] == "208MiB" && l["memory_budget"] == "96MiB" &&
				l["cache_bounds"] == "80MiB" && l["baseline"] == "32MiB"
		}},
		{"a size", []string{"--memory-limit", "1GiB"}, nil, []int64{1 << 30}, func(l map[string]any) bool {
			return l["memory_limit_source"] == "flag" && l["memory_limit"] == "1GiB"
		}},
		{"off from the environment", nil, map[string]string{"GATEWAY_MEMORY_LIMIT": "off"}, nil, func(l map[string]any) bool {
			return l["memory_limit_source"] == "off" && l["memory_limit"] == nil
		}},
		{"GOMEMLIMIT", []string{"--memory-limit", "1GiB"}, map[string]string{"GOMEMLIMIT": "300MiB"}, nil, func(l map[string]any) bool {
			return l["memory_limit_source"] == "GOMEMLIMIT" && l["gomemlimit"] == "300MiB"
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			env := map[string]string{"DAGU_API_KEY": fakedagutest.APIKey}
			maps.Copy(env, tt.env)
			var logs testkit.LogBuffer
			var set []int64
			args := append([]string{"stdio", "--dagu-url", daguURL, "--log-level", "info"}, tt.args...)
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			code := run(ctx, args, environment{
				stdin: strings.NewReader(""), stdout: io.Discard, stderr: &logs, getenv: mapEnv(env),
				setMemoryLimit: func(n int64) int64 { set = append(set, n); return 0 },
			})
			l := memoryLimitLine(t, &logs)
			if code != 0 || l == nil || l["level"] != "INFO" || !tt.check(l) || !slices.Equal(set, tt.set) {
				t.Errorf("exit %d, set %v (want %v), memory limit line %v\n%s", code, set, tt.set, l, logs.String())
			}
		})
	}
}

// TestMemoryLimitValues: --memory-limit refuses what it cannot read and
// sizes below the smallest useful limit.
func TestMemoryLimitValues(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		text string
		size int64
		auto bool
		ok   bool
	}{
		{"auto", 0, true, true}, {"", 0, true, true}, {" Auto ", 0, true, true},
		{"off", 0, false, true}, {"0", 0, false, true},
		{"32MiB", 32 << 20, false, true}, {"2GiB", 2 << 30, false, true},
		{"16MiB", 0, false, false}, {"0MiB", 0, false, false}, {"256MB", 0, false, false}, {"none", 0, false, false}, {"-1", 0, false, false},
	} {
		size, auto, err := config.ParseMemoryLimit(tt.text)
		if size != tt.size || auto != tt.auto || (err == nil) != tt.ok {
			t.Errorf("ParseMemoryLimit(%q) = %d, %v, %v; want %d, %v, ok %v", tt.text, size, auto, err, tt.size, tt.auto, tt.ok)
		}
	}
}
