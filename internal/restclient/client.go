// SPDX-License-Identifier: Apache-2.0

package restclient

import (
	"context"
	"fmt"
	"net/url"
	"sync/atomic"

	"github.com/dagu-mcp-gateway/gateway/internal/reqctx"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient/gen"
)

// Client calls Dagu's REST API through the generated client, over the
// guarded, retrying resty transport. It is safe for concurrent use. Its
// methods return generated types (for package upstream)
// and *Error values.
type Client struct {
	cfg Config
	// apis holds one generated client per REST base; base selects the one
	// in use (APIv1 until DetectAPIBase says otherwise).
	apis map[APIBase]*gen.Client
	base atomic.Pointer[APIBase]
	// childRoutes: sub-runs are read through Dagu 1.17's /children routes
	// (see SetChildRoutes).
	childRoutes atomic.Bool
	// doer is the one transport path under every API.
	doer *doer
}

// New validates cfg and builds a Client. It does not contact Dagu.
func New(cfg Config) (*Client, error) {
	cfg = cfg.withDefaults()
	urls := make(map[APIBase]*url.URL, len(apiBases))
	all := make([]*url.URL, 0, len(apiBases))
	for _, b := range apiBases {
		u, err := restBaseURL(cfg.BaseURL, b)
		if err != nil {
			return nil, err
		}
		urls[b] = u
		all = append(all, u)
	}
	identity, err := cfg.Compression.wantsIdentity(all[0])
	if err != nil {
		return nil, err
	}
	hc, err := newHTTPClient(cfg)
	if err != nil {
		return nil, err
	}
	m, err := newMetrics(cfg.Metrics)
	if err != nil {
		return nil, fmt.Errorf("upstream metrics: %w", err)
	}
	d := newDoer(cfg, newGuard(all...), hc, m)
	d.identity = identity
	c := &Client{cfg: cfg, apis: make(map[APIBase]*gen.Client, len(urls)), doer: d}
	for b, u := range urls {
		api, err := gen.NewClient(u.String(), gen.WithHTTPClient(d))
		if err != nil {
			return nil, fmt.Errorf("dagu client: %w", err)
		}
		c.apis[b] = api
	}
	c.SetAPIBase(APIv1)
	return c, nil
}

// APIBase is the REST base in use.
func (c *Client) APIBase() APIBase { return *c.base.Load() }

// SetAPIBase switches every later call to the REST base b; an unknown base
// is ignored.
func (c *Client) SetAPIBase(b APIBase) {
	if _, ok := c.apis[b]; ok {
		c.base.Store(&b)
	}
}

// api is the generated client of the REST base in use.
func (c *Client) api() *gen.Client { return c.apis[c.APIBase()] }

// KeyFingerprint identifies the API key in use (see KeyFingerprint).
func (c *Client) KeyFingerprint() string { return c.cfg.Key.Fingerprint() }

// Passthrough reports whether requests carry each caller's own credential
// (and so none outside a caller's request).
func (c *Client) Passthrough() bool { return c.cfg.Passthrough }

// Fingerprint identifies the credential a request in ctx is sent with
// (see doer.credential): the one the front door chose for the request,
// else the configured key outside passthrough. Caches key on it so that no
// answer is ever served across credentials: two access rules with
// different Dagu keys never share an entry, two with the same key share
// what that key reads.
func (c *Client) Fingerprint(ctx context.Context) string {
	key, chosen := reqctx.Credential(ctx)
	switch {
	case c.cfg.Passthrough:
		return "caller:" + KeyFingerprint(key)
	case chosen:
		return KeyFingerprint(key)
	}
	return c.cfg.Key.Fingerprint()
}

// checkParams refuses a call whose path parameter is empty or a dot
// segment before anything is built: the generated client leaves "." and
// ".." unescaped, and URL resolution would silently drop them.
func checkParams(route string, values ...string) error {
	for _, v := range values {
		if !validParam(v) {
			return refused(route, "path parameter %q is not allowed", v)
		}
	}
	return nil
}

// ptr returns a pointer to v, or nil for the zero value: Dagu treats an
// absent parameter as "default", so zero means "do not send".
func ptr[T comparable](v T) *T {
	var zero T
	if v == zero {
		return nil
	}
	return &v
}
