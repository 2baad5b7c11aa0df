// SPDX-License-Identifier: Apache-2.0

package sharedstate

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/redis/go-redis/v9/maintnotifications"

	"github.com/dagu-mcp-gateway/gateway/internal/redact"
)

// connection is the go-redis client Open made for the URL's topology and
// what the Store needs to know of it.
type connection struct {
	topology Topology
	client   redis.UniversalClient
	// cluster is the same client as a cluster client (Cluster only): it
	// names the master that serves a key.
	cluster *redis.ClusterClient
	// display is the URL without its password.
	display string
	// node is the address the last new connection reached: the one server
	// (Standalone) or the master the sentinels named (Sentinel).
	node *dialedNode
	// closed is set by Close: background work stops asking.
	closed atomic.Bool
}

// connect makes the client of opts.URL's topology: go-redis's own client,
// cluster client or Sentinel failover client. It does not contact Redis.
func connect(opts Options) (*connection, error) {
	scheme, _, _ := cutScheme(opts.URL)
	topology, _, ok := topologyOf(scheme)
	if !ok {
		return nil, fmt.Errorf("shared state: %q is %w", displayOf(opts.URL), errURL)
	}
	if opts.SentinelPasswordFile != "" && topology != Sentinel {
		return nil, errors.New("shared state: a sentinel password file needs a redis+sentinel:// URL")
	}
	if topology == Standalone {
		ro, err := clientOptions(opts)
		if err != nil {
			return nil, err
		}
		c := &connection{topology: Standalone, client: redis.NewClient(ro), display: redact.URL(opts.URL), node: &dialedNode{}}
		c.client.AddHook(c.node)
		return c, nil
	}
	t, err := parseSeedURL(opts.URL)
	if err != nil {
		return nil, fmt.Errorf("shared state: %q is %w", displayOf(opts.URL), err)
	}
	uo, err := universalOptions(opts, t)
	if err != nil {
		return nil, err
	}
	c := &connection{topology: t.topology, client: redis.NewUniversalClient(uo), display: t.display, node: &dialedNode{}}
	if cc, ok := c.client.(*redis.ClusterClient); ok {
		c.cluster = cc
	} else {
		c.client.AddHook(c.node)
	}
	return c, nil
}

// cutScheme splits a URL at "://".
func cutScheme(raw string) (scheme, rest string, ok bool) {
	for i := 0; i+3 <= len(raw) && i < 32; i++ {
		if raw[i:i+3] == "://" {
			return raw[:i], raw[i+3:], true
		}
	}
	return "", raw, false
}

// universalOptions are go-redis's options for a cluster or Sentinel URL.
func universalOptions(opts Options, t target) (*redis.UniversalOptions, error) {
	uo := &redis.UniversalOptions{
		Addrs: t.seeds, Username: t.username, Password: t.password, DB: t.db,
		IsClusterMode: t.topology == Cluster, MasterName: t.masterName,
	}
	if t.tls {
		cfg, err := tlsConfig(t)
		if err != nil {
			return nil, err
		}
		uo.TLSConfig = cfg
	}
	if opts.PasswordFile != "" {
		provider, err := credentials(opts.PasswordFile, t.username)
		if err != nil {
			return nil, err
		}
		uo.Password = ""
		uo.CredentialsProviderContext = provider
	}
	if opts.SentinelPasswordFile != "" {
		// Sentinel connections take a fixed password in go-redis: a rotated
		// sentinel password needs a restart.
		pw, err := readPassword(opts.SentinelPasswordFile)
		if err != nil {
			return nil, fmt.Errorf("sentinel %w", err)
		}
		uo.SentinelPassword = pw
	}
	tune := tuning(opts)
	uo.Protocol, uo.DisableIdentity, uo.ClientName = 2, true, tune.clientName
	uo.MaxRetries, uo.MinRetryBackoff, uo.MaxRetryBackoff = tune.maxRetries, tune.minBackoff, tune.maxBackoff
	uo.DialTimeout, uo.DialerRetries = tune.dial, tune.dialRetries
	uo.ReadTimeout, uo.WriteTimeout = opts.Timeout, opts.Timeout
	uo.ContextTimeoutEnabled, uo.PoolSize, uo.PoolTimeout = true, opts.PoolSize, opts.Timeout
	uo.MaxRedirects = maxRedirects
	uo.MaintNotificationsConfig = &maintnotifications.Config{Mode: maintnotifications.ModeDisabled}
	return uo, nil
}

// maxRedirects bounds the MOVED and ASK answers one cluster operation
// follows (a resharding moves slots while reads go on); the operation's
// deadline bounds them too.
const maxRedirects = 3

// clientTuning is what every topology's client shares.
type clientTuning struct {
	clientName             string
	maxRetries             int
	minBackoff, maxBackoff time.Duration
	dial                   time.Duration
	dialRetries            int
}

// tuning: RESP2 (understood by every Redis and Valkey), at most one quick
// retry (the caller falls back instead), timeouts from Options.Timeout.
//
// One quick retry: after Redis restarts, every pooled connection fails once
// (EOF) before a fresh one is dialled; without the retry each of them would
// count as Redis being down. The operation's own deadline still bounds both
// tries. One dial per try (go-redis would dial five times, 100 ms apart): a
// refused connection then fails the operation at once, and the Store's
// pauses decide when to try again.
func tuning(opts Options) clientTuning {
	return clientTuning{clientName: "dagu-mcp-gateway", maxRetries: 1, minBackoff: time.Millisecond,
		maxBackoff: 5 * time.Millisecond, dial: max(opts.Timeout, minDialTimeout), dialRetries: 1}
}

// clientOptions turns a redis:// or rediss:// URL and the password file
// into go-redis options for one server.
func clientOptions(opts Options) (*redis.Options, error) {
	raw, caFile, err := takeCAFile(opts.URL)
	if err != nil {
		return nil, err
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "redis" && u.Scheme != "rediss") || u.Host == "" {
		return nil, fmt.Errorf("shared state: %q is %w", redact.URL(opts.URL), errURL)
	}
	ro, err := redis.ParseURL(raw)
	if err != nil {
		return nil, fmt.Errorf("shared state: %q: %w", redact.URL(opts.URL), redactErr(err, opts.URL))
	}
	if caFile != "" {
		if ro.TLSConfig == nil {
			return nil, errors.New("shared state: ca_file needs a rediss:// URL")
		}
		if ro.TLSConfig.RootCAs, err = loadCA(caFile); err != nil {
			return nil, err
		}
	}
	if opts.PasswordFile != "" {
		if ro.CredentialsProviderContext, err = credentials(opts.PasswordFile, ro.Username); err != nil {
			return nil, err
		}
		ro.Password = ""
	}
	tune := tuning(opts)
	ro.Protocol, ro.DisableIdentity, ro.ClientName = 2, true, tune.clientName
	ro.MaintNotificationsConfig = &maintnotifications.Config{Mode: maintnotifications.ModeDisabled}
	ro.MaxRetries, ro.MinRetryBackoff, ro.MaxRetryBackoff = tune.maxRetries, tune.minBackoff, tune.maxBackoff
	ro.DialTimeout, ro.DialerRetries = tune.dial, tune.dialRetries
	ro.ReadTimeout, ro.WriteTimeout = opts.Timeout, opts.Timeout
	ro.ContextTimeoutEnabled, ro.PoolSize, ro.PoolTimeout = true, opts.PoolSize, opts.Timeout
	return ro, nil
}

// takeCAFile removes the ca_file option from a redis:// URL (go-redis does
// not know it) and returns it.
func takeCAFile(raw string) (string, string, error) {
	u, err := url.Parse(raw)
	if err != nil || !u.Query().Has("ca_file") {
		return raw, "", nil
	}
	q := u.Query()
	caFile := q.Get("ca_file")
	q.Del("ca_file")
	u.RawQuery = q.Encode()
	if caFile == "" {
		return "", "", errors.New("shared state: ca_file names no file")
	}
	return u.String(), caFile, nil
}

// credentials reads the password file once now (a missing or empty file
// stops Open) and again for every new connection.
func credentials(path, user string) (func(context.Context) (string, string, error), error) {
	pw := newPasswordFile(path)
	if _, err := pw.read(); err != nil {
		return nil, err
	}
	return func(context.Context) (string, string, error) {
		p, err := pw.read()
		return user, p, err
	}, nil
}

// tlsConfig is the TLS of a cluster or Sentinel URL. A cluster's nodes
// are often announced by address while their certificate names the
// service's host (Azure's clustered caches): a host name among the seeds
// is the name every node's certificate is checked against. Without one,
// each node is checked against its own address.
func tlsConfig(t target) (*tls.Config, error) {
	cfg := &tls.Config{MinVersion: tls.VersionTLS12, InsecureSkipVerify: t.skipVerify} //nolint:gosec // skip_verify is the operator's explicit choice, for tests
	if t.topology == Cluster {
		host, _, _ := net.SplitHostPort(t.seeds[0])
		if net.ParseIP(host) == nil {
			cfg.ServerName = host
		}
	}
	if t.caFile != "" {
		pool, err := loadCA(t.caFile)
		if err != nil {
			return nil, err
		}
		cfg.RootCAs = pool
	}
	return cfg, nil
}

// maxCABytes bounds a CA file.
const maxCABytes = 1 << 20

// loadCA reads a PEM file of certificate authorities.
func loadCA(path string) (*x509.CertPool, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("shared state ca_file: %w", err)
	}
	defer f.Close()
	pem, err := io.ReadAll(io.LimitReader(f, maxCABytes+1))
	if err != nil {
		return nil, fmt.Errorf("shared state ca_file: %w", err)
	}
	pool := x509.NewCertPool()
	if len(pem) > maxCABytes || !pool.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("shared state ca_file %s: no PEM certificate in its first %d bytes", path, maxCABytes)
	}
	return pool, nil
}

// minDialTimeout lets a TLS handshake finish even with a short operation
// timeout; the operation itself still gives up at its own deadline.
const minDialTimeout = 500 * time.Millisecond

// silenceOnce keeps go-redis's own logger quiet: it would print a line per
// failed connection, and the Store already says so, once per outage.
var silenceOnce sync.Once

func silenceClientLogger() {
	silenceOnce.Do(func() { redis.SetLogger(quietLogger{}) })
}

type quietLogger struct{}

func (quietLogger) Printf(context.Context, string, ...any) {}

// dialedNode remembers the address of the last connection a client made
// (a go-redis hook): for a Sentinel URL, the master the sentinels named.
type dialedNode struct{ addr atomic.Pointer[string] }

func (d *dialedNode) get() string {
	if p := d.addr.Load(); p != nil {
		return *p
	}
	return ""
}

func (d *dialedNode) DialHook(next redis.DialHook) redis.DialHook {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		conn, err := next(ctx, network, addr)
		if err == nil {
			a := conn.RemoteAddr().String()
			d.addr.Store(&a)
		}
		return conn, err
	}
}

func (d *dialedNode) ProcessHook(next redis.ProcessHook) redis.ProcessHook { return next }

func (d *dialedNode) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return next
}
