// SPDX-License-Identifier: Apache-2.0

// Package instances is the gateway's list of named Dagu servers: the
// instances file (serve --instances FILE), its strict parser, its reload
// (polled like the token file, and on SIGHUP), and Pool, which keeps one
// live value per instance (the wired endpoint of cmd/gateway) and swaps the
// set atomically, releasing a removed or changed instance's value only once
// the requests that started on it are done.
//
// The file holds only what differs between Dagu servers; every other
// setting stays global:
//
//	instances:
//	  - name: prod                    # [a-z0-9-]{1,32}, unique
//	    url: https://dagu.prod.example  # checked like --dagu-url
//	    apiKeyFile: /run/secrets/dagu-prod
//	  - name: staging
//	    url: https://dagu.staging.example
//	    upstreamAuth: passthrough     # instead of apiKeyFile
//	    caFile: /etc/ca/staging.pem
//	    upstreamTimeout: 30s          # else --upstream-timeout
//	    upstreamCompression: gzip     # else --upstream-compression
//
// The package knows nothing of Dagu's API or the tool.
package instances

import (
	"fmt"
	"slices"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/config"
	"github.com/dagu-mcp-gateway/gateway/internal/watchfile"
)

// DefaultName is the instance /mcp serves when the file names one.
const DefaultName = "default"

// Upstream authentication of an instance (the values of --upstream-auth).
const (
	// AuthService reads Dagu with the instance's own key (apiKeyFile).
	AuthService = "service"
	// AuthPassthrough forwards each caller's own key to this instance only.
	AuthPassthrough = "passthrough"
)

// Bounds of an instances file.
const (
	// MaxFileBytes is the largest instances file read.
	MaxFileBytes = 1 << 20
	// MaxInstances is the most instances one file may name.
	MaxInstances = 64
	// MaxKeyFileBytes is the largest apiKeyFile read: a key is one line.
	MaxKeyFileBytes = 64 << 10
)

// Instance is one Dagu server of the file. It is comparable: two loads
// that give an instance equal values leave its endpoint alone.
type Instance struct {
	// Name is the instance's name: its endpoint is /dagu/<Name>/mcp.
	Name string
	// URL is Dagu's base URL, as --dagu-url.
	URL string
	// APIKeyFile holds the key the gateway reads this Dagu with (service
	// mode); never the key itself.
	APIKeyFile string
	// UpstreamAuth is AuthService or AuthPassthrough; empty takes the
	// process's --upstream-auth.
	UpstreamAuth string
	// CAFile is a PEM bundle of extra roots trusted for this Dagu.
	CAFile string
	// InsecureSkipVerify disables TLS verification of this Dagu.
	InsecureSkipVerify bool
	// UpstreamTimeout bounds each call to this Dagu; 0 takes
	// --upstream-timeout.
	UpstreamTimeout time.Duration
	// UpstreamCompression is auto, gzip or identity; empty takes
	// --upstream-compression.
	UpstreamCompression string
}

// Set is the instances of one version of the file, in file order.
type Set struct {
	// Instances are the instances, names unique.
	Instances []Instance
}

// Names returns the instances' names in file order.
func (s Set) Names() []string {
	out := make([]string, len(s.Instances))
	for i, in := range s.Instances {
		out[i] = in.Name
	}
	return out
}

// Lookup returns the instance of a name.
func (s Set) Lookup(name string) (Instance, bool) {
	i := slices.IndexFunc(s.Instances, func(in Instance) bool { return in.Name == name })
	if i < 0 {
		return Instance{}, false
	}
	return s.Instances[i], true
}

// ValidName reports whether name has the form of an instance name, 1 to 32
// of a-z, 0-9 and -: it is a path segment of /dagu/<name>/mcp, a metrics
// label, a shared-state key prefix and an entry of a token's instances=
// (config.ValidInstanceName, the one rule).
func ValidName(name string) bool { return config.ValidInstanceName(name) }

// Passthrough reports whether the instance forwards callers' keys, given
// the process's --upstream-auth.
func (in Instance) Passthrough(global string) bool {
	auth := in.UpstreamAuth
	if auth == "" {
		auth = global
	}
	return auth == AuthPassthrough
}

// CheckAuth refuses instances whose upstreamAuth differs from the
// process's --upstream-auth (global): the front door reads a request's
// Authorization header one way for every endpoint (an inbound token, or the
// caller's Dagu key), so the modes cannot be mixed in one gateway. In
// passthrough no instance may name a key file.
func CheckAuth(set Set, global string) error {
	for _, in := range set.Instances {
		switch {
		case in.UpstreamAuth != "" && in.UpstreamAuth != global:
			return fmt.Errorf("instance %s: upstreamAuth %s differs from --upstream-auth %s: one gateway reads every caller's Authorization header one way; run a gateway per mode",
				in.Name, in.UpstreamAuth, global)
		case global == AuthPassthrough && in.APIKeyFile != "":
			return fmt.Errorf("instance %s: apiKeyFile is set but --upstream-auth is passthrough (each caller sends its own key)", in.Name)
		}
	}
	return nil
}

// ConfigOf is the configuration an instance's gateway runs with: the
// process's settings with the instance's own Dagu settings in place of the
// single Dagu's.
func ConfigOf(global config.Config, in Instance) config.Config {
	cfg := global
	cfg.DaguURL, cfg.DaguAPIKey, cfg.DaguAPIKeyFile = in.URL, "", in.APIKeyFile
	cfg.DaguCAFile, cfg.DaguInsecureSkipVerify = in.CAFile, in.InsecureSkipVerify
	if in.UpstreamTimeout > 0 {
		cfg.UpstreamTimeout = in.UpstreamTimeout
	}
	if in.UpstreamCompression != "" {
		cfg.UpstreamCompression = in.UpstreamCompression
	}
	return cfg
}

// CheckKeyFile refuses an instance whose key file cannot be read, is not a
// regular file of at most MaxKeyFileBytes (a FIFO would keep the reload
// waiting, /dev/zero would fill the memory), or holds no usable key (empty,
// or with spaces or control characters); the message never holds the key.
func (in Instance) CheckKeyFile() error {
	if in.APIKeyFile == "" {
		return nil
	}
	return watchfile.CheckKeyFile(in.APIKeyFile, "apiKeyFile", MaxKeyFileBytes)
}
