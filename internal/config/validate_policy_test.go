// SPDX-License-Identifier: Apache-2.0

package config

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestPolicyFlags(t *testing.T) {
	t.Parallel()
	got, err := resolveFrom(t, []string{"--call-timeout", "5s", "--text-content", "json", "--disable-target", "workbook"},
		map[string]string{"GATEWAY_RESOURCE_LINKS": "omit", "GATEWAY_RATE_LIMIT": "2.5", "GATEWAY_RATE_BURST": "4", "GATEWAY_UPSTREAM_CONCURRENCY": "8", "GATEWAY_DISABLE_TARGETS": "wiki"})
	if err != nil {
		t.Fatal(err)
	}
	if got.CallTimeout != 5*time.Second || got.TextContent != "json" || got.ResourceLinks != "omit" || got.RateLimit != 2.5 || got.RateBurst != 4 ||
		got.UpstreamConcurrency != 8 || !reflect.DeepEqual(got.DisabledTargets, []string{"workbook"}) {
		t.Fatalf("config %+v", got)
	}
	if _, err := resolveFrom(t, nil, map[string]string{"GATEWAY_RATE_LIMIT": "fast"}); err == nil || !strings.Contains(err.Error(), "GATEWAY_RATE_LIMIT") {
		t.Fatalf("bad rate accepted: %v", err)
	}
}

func TestPolicyValidation(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		edit func(*Config)
		want string
	}{
		{"zero call timeout", func(c *Config) { c.CallTimeout = 0 }, "call-timeout"},
		{"unknown text content", func(c *Config) { c.TextContent = "yaml" }, "text-content"},
		{"unknown upstream compression", func(c *Config) { c.UpstreamCompression = "br" }, "upstream-compression"},
		{"unknown resource links", func(c *Config) { c.ResourceLinks = "attach" }, "resource-links"},
		{"negative rate", func(c *Config) { c.RateLimit = -1 }, "rate-limit"},
		{"unknown target", func(c *Config) { c.DisabledTargets = []string{"queues"} }, "disable-target"},
		{"zero concurrency", func(c *Config) { c.UpstreamConcurrency = 0 }, "upstream-concurrency"},
		{"shared state over http", func(c *Config) { c.SharedStateURL = "http://cache:6379" }, "shared-state"},
		{"shared state without a host", func(c *Config) { c.SharedStateURL = "redis://" }, "shared-state"},
		{"shared-state password without a URL", func(c *Config) { c.SharedStatePasswordFile = "/run/secrets/redis" }, "shared-state"},
		{"sentinel password without a URL", func(c *Config) { c.SharedStateSentinelPasswordFile = "/run/secrets/s" }, "shared-state-sentinel-password-file needs"},
		{"sentinel password without sentinels", func(c *Config) {
			c.SharedStateURL, c.SharedStateSentinelPasswordFile = "redis+cluster://a:7000,b:7001", "/run/secrets/s"
		}, "redis+sentinel"},
		{"shared state over an unknown scheme", func(c *Config) { c.SharedStateURL = "redis+ring://a:1,b:2" }, "redis+cluster://"},
		{"cluster without a host", func(c *Config) { c.SharedStateURL = "redis+cluster:///" }, "shared-state"},
		{"slow shared state", func(c *Config) { c.SharedStateURL = "redis://cache:6379"; c.SharedStateTimeout = time.Minute }, "shared-state-timeout"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c, err := resolveFrom(t, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			tt.edit(&c)
			errs := c.validatePolicy(testTargets)
			if len(errs) == 0 || !strings.Contains(errs[0].Error(), tt.want) {
				t.Fatalf("errors %v, want one naming %s", errs, tt.want)
			}
		})
	}
}

func TestSharedStateSettings(t *testing.T) {
	t.Parallel()
	got, err := resolveFrom(t, []string{"--shared-state", "rediss://:hunter2@cache:6380/1", "--shared-state-timeout", "250ms"},
		map[string]string{"GATEWAY_SHARED_STATE_PASSWORD_FILE": "/run/secrets/redis"})
	if err != nil {
		t.Fatal(err)
	}
	if got.SharedStateURL != "rediss://:hunter2@cache:6380/1" || got.SharedStatePasswordFile != "/run/secrets/redis" || got.SharedStateTimeout != 250*time.Millisecond {
		t.Fatalf("config %+v", got)
	}
	if errs := got.validatePolicy(testTargets); len(errs) != 0 {
		t.Fatalf("valid shared-state settings refused: %v", errs)
	}
	if logged := got.String(); strings.Contains(logged, "hunter2") {
		t.Fatalf("the printed configuration carries the URL's password: %s", logged)
	}
	for _, raw := range []string{"redis+cluster://:hunter2@a:7000,b:7001", "rediss+cluster://cfg.example:6379/?ca_file=/etc/ca.pem",
		"redis+sentinel://s1:26379,s2:26379,s3:26379/gateway/1", "rediss+sentinel://s1/gateway"} {
		c := got
		c.SharedStateURL = raw
		c.SharedStateSentinelPasswordFile = ""
		if strings.Contains(raw, "sentinel") {
			c.SharedStateSentinelPasswordFile = "/run/secrets/sentinel"
		}
		if errs := c.validatePolicy(testTargets); len(errs) != 0 {
			t.Fatalf("%s refused: %v", raw, errs)
		}
		if logged := c.String(); strings.Contains(logged, "hunter2") {
			t.Fatalf("the printed configuration carries the URL's password: %s", logged)
		}
	}
}
