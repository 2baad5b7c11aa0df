// SPDX-License-Identifier: Apache-2.0

package sharedstate

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"

	"github.com/dagu-mcp-gateway/gateway/internal/redact"
)

// Topology is how the shared Redis is deployed, named by the URL's scheme.
type Topology string

// The topologies Open understands.
const (
	// Standalone is one Redis or Valkey server: redis:// or rediss://.
	Standalone Topology = "standalone"
	// Cluster is Redis Cluster (or a managed service's cluster mode):
	// redis+cluster:// or rediss+cluster://, any of its nodes as seeds.
	Cluster Topology = "cluster"
	// Sentinel is a master and its replicas watched by Redis Sentinel:
	// redis+sentinel:// or rediss+sentinel://, the sentinels as seeds.
	Sentinel Topology = "sentinel"
)

// Default ports of a seed without one.
const (
	defaultRedisPort    = "6379"
	defaultSentinelPort = "26379"
)

// Bounds of what a URL may ask for.
const (
	maxSeeds     = 32
	maxURLBytes  = 4096
	maxDB        = 1<<31 - 1
	maxNameBytes = 256
)

// target is a parsed shared-state URL of the cluster or sentinel forms
// (a redis:// URL is go-redis's to parse): where to connect and as whom.
type target struct {
	topology   Topology
	tls        bool
	skipVerify bool
	caFile     string   // a PEM file of the authorities to trust (TLS only)
	seeds      []string // host:port
	username   string
	password   string // the URL's; never shown
	masterName string // Sentinel only
	db         int    // Sentinel only; a cluster has database 0 alone
	display    string // the URL without its password
}

// topologyOf names the topology of a URL's scheme, or false when the
// scheme is none of ours.
func topologyOf(scheme string) (topology Topology, tls, ok bool) {
	switch scheme {
	case "redis", "rediss":
		return Standalone, scheme == "rediss", true
	case "redis+cluster", "rediss+cluster":
		return Cluster, scheme == "rediss+cluster", true
	case "redis+sentinel", "rediss+sentinel":
		return Sentinel, scheme == "rediss+sentinel", true
	}
	return "", false, false
}

// errURL is the one sentence every refused URL starts with.
var errURL = errors.New("not a shared-state URL (redis://, rediss://, redis+cluster://, rediss+cluster://, redis+sentinel:// or rediss+sentinel://)")

// parseSeedURL reads a redis+cluster:// or redis+sentinel:// URL (and
// their rediss+ forms):
//
//	redis+cluster://[user[:password]@]host[:port][,host[:port]...][/][?option=value...]
//	redis+sentinel://[user[:password]@]host[:port][,host[:port]...]/master-name[/db][?option=value...]
//
// The options, TLS only: ca_file (a PEM file of the authorities that sign
// the servers' certificates) and skip_verify (tests only).
//
// The user and password are the Redis servers' (a sentinel's own password
// comes from Options.SentinelPasswordFile). Errors never carry the URL's
// password.
func parseSeedURL(raw string) (target, error) {
	if len(raw) > maxURLBytes {
		return target{}, fmt.Errorf("%w: longer than %d bytes", errURL, maxURLBytes)
	}
	scheme, rest, ok := strings.Cut(raw, "://")
	topology, tls, known := topologyOf(scheme)
	if !ok || !known || topology == Standalone {
		return target{}, errURL
	}
	authority, tail := rest, ""
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		authority, tail = rest[:i], rest[i:]
	}
	userinfo, hosts := "", authority
	if at := strings.LastIndex(authority, "@"); at >= 0 {
		userinfo, hosts = authority[:at+1], authority[at+1:]
	}
	// One placeholder host lets net/url decode the user information, the
	// path and the query; the seeds are read apart.
	u, err := url.Parse(scheme + "://" + userinfo + "seeds.invalid" + tail)
	if err != nil {
		return target{}, fmt.Errorf("%w: %s", errURL, redactedParseError(err))
	}
	t := target{topology: topology, tls: tls}
	if u.User != nil {
		t.username = u.User.Username()
		t.password, _ = u.User.Password()
	}
	port := defaultRedisPort
	if topology == Sentinel {
		port = defaultSentinelPort
	}
	if t.seeds, err = parseSeeds(hosts, port); err != nil {
		return target{}, err
	}
	if err := t.readPath(u); err != nil {
		return target{}, err
	}
	if err := t.readQuery(u); err != nil {
		return target{}, err
	}
	t.display = displayURL(scheme, u, hosts)
	return t, nil
}

// parseSeeds reads the comma-separated host[:port] list.
func parseSeeds(hosts, defaultPort string) ([]string, error) {
	if hosts == "" {
		return nil, fmt.Errorf("%w: no host", errURL)
	}
	list := strings.Split(hosts, ",")
	if len(list) > maxSeeds {
		return nil, fmt.Errorf("%w: more than %d hosts", errURL, maxSeeds)
	}
	seeds := make([]string, 0, len(list))
	for _, h := range list {
		addr, err := seedAddr(h, defaultPort)
		if err != nil {
			return nil, err
		}
		seeds = append(seeds, addr)
	}
	return seeds, nil
}

// seedAddr checks one host[:port] ([v6]:port for IPv6) and adds the
// default port when there is none.
func seedAddr(h, defaultPort string) (string, error) {
	host, port := h, defaultPort
	if strings.HasPrefix(h, "[") || strings.Count(h, ":") == 1 {
		var err error
		if host, port, err = net.SplitHostPort(h); err != nil {
			if host, err = bracketedHost(h); err != nil {
				return "", fmt.Errorf("%w: host %q: %v", errURL, h, err)
			}
			port = defaultPort
		}
	}
	n, err := strconv.Atoi(port)
	switch {
	case host == "" || strings.ContainsAny(host, "[]@/?#%\\ \t") || strings.Contains(host, ":") && net.ParseIP(host) == nil:
		return "", fmt.Errorf("%w: host %q is not a host name or address", errURL, h)
	case err != nil || n < 1 || n > 65535:
		return "", fmt.Errorf("%w: host %q has no valid port", errURL, h)
	}
	return net.JoinHostPort(host, strconv.Itoa(n)), nil
}

// bracketedHost reads "[v6]" without a port.
func bracketedHost(h string) (string, error) {
	if len(h) > 2 && h[0] == '[' && h[len(h)-1] == ']' && net.ParseIP(h[1:len(h)-1]) != nil {
		return h[1 : len(h)-1], nil
	}
	return "", errors.New("expected host, host:port or [v6]:port")
}

// readPath reads a Sentinel URL's /master-name[/db]; a cluster URL has no
// path (a cluster has database 0 alone).
func (t *target) readPath(u *url.URL) error {
	segments := strings.Split(strings.Trim(u.Path, "/"), "/")
	if u.Path == "" || u.Path == "/" {
		segments = nil
	}
	switch {
	case t.topology == Cluster && len(segments) > 0:
		return fmt.Errorf("%w: a redis+cluster URL has no path (Redis Cluster has database 0 alone), got %q", errURL, u.Path)
	case t.topology == Cluster:
		return nil
	case len(segments) == 0 || segments[0] == "":
		return fmt.Errorf("%w: a redis+sentinel URL names its master: redis+sentinel://host:26379/master-name[/db]", errURL)
	case len(segments) > 2:
		return fmt.Errorf("%w: the path of a redis+sentinel URL is /master-name[/db], got %q", errURL, u.Path)
	case len(segments[0]) > maxNameBytes:
		return fmt.Errorf("%w: the master name is longer than %d bytes", errURL, maxNameBytes)
	}
	t.masterName = segments[0]
	if len(segments) == 2 {
		db, err := strconv.Atoi(segments[1])
		if err != nil || db < 0 || db > maxDB {
			return fmt.Errorf("%w: database %q is not a number from 0", errURL, segments[1])
		}
		t.db = db
	}
	return nil
}

// readQuery reads the options these URLs take, both for TLS: ca_file and
// skip_verify (tests only). Every other option is a mistake worth
// stopping on: the gateway sets timeouts, pool and retries itself.
func (t *target) readQuery(u *url.URL) error {
	if u.Fragment != "" {
		return fmt.Errorf("%w: a fragment (#...) means nothing here", errURL)
	}
	q, err := url.ParseQuery(u.RawQuery)
	if err != nil {
		return fmt.Errorf("%w: its query does not parse", errURL)
	}
	for name, values := range q {
		value := values[len(values)-1]
		switch {
		case name != "skip_verify" && name != "ca_file":
			return fmt.Errorf("%w: unknown option %q (the options are ca_file and skip_verify, with TLS)", errURL, truncate(name, 64))
		case !t.tls:
			return fmt.Errorf("%w: %s is an option of TLS, in a rediss+ URL", errURL, name)
		case name == "ca_file" && value == "":
			return fmt.Errorf("%w: ca_file names no file", errURL)
		case name == "ca_file":
			t.caFile = value
		default:
			v, err := strconv.ParseBool(value)
			if err != nil {
				return fmt.Errorf("%w: skip_verify is true or false", errURL)
			}
			t.skipVerify = v
		}
	}
	return nil
}

// displayURL is the URL as logs and /readyz show it: the password replaced
// by xxxxx, the seeds as given.
func displayURL(scheme string, u *url.URL, hosts string) string {
	var b strings.Builder
	b.WriteString(scheme + "://")
	if u.User != nil {
		b.WriteString(url.PathEscape(u.User.Username()))
		if _, ok := u.User.Password(); ok {
			b.WriteString(":xxxxx")
		}
		b.WriteString("@")
	}
	b.WriteString(hosts)
	b.WriteString(u.EscapedPath())
	if u.RawQuery != "" {
		b.WriteString("?" + u.RawQuery)
	}
	return b.String()
}

// redactedParseError is net/url's complaint without the text it quotes,
// which may hold a password.
func redactedParseError(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err.Error()
	}
	return "it does not parse"
}

// truncate bounds text an error quotes.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

// displayOf is any shared-state URL without its password.
func displayOf(raw string) string {
	if t, err := parseSeedURL(raw); err == nil {
		return t.display
	}
	return redact.URL(raw)
}
