// SPDX-License-Identifier: Apache-2.0

package oidc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/config"
)

// Bounds of one fetch from the issuer (its discovery document or its
// JWKS): an issuer that hangs or answers 50 MB costs at most this.
const (
	// DefaultFetchTimeout bounds one fetch, connection and body included.
	DefaultFetchTimeout = 5 * time.Second
	// DefaultFetchMaxBytes bounds the body of one fetch: real key sets
	// and discovery documents are a few KiB.
	DefaultFetchMaxBytes = 256 << 10
	// maxRedirects bounds the redirects one fetch follows.
	maxRedirects = 3
)

// errTooLarge is a body past the fetch's byte bound.
var errTooLarge = errors.New("the answer is larger than the gateway reads")

// fetcher GETs JSON documents from the issuer within a time and a byte
// bound, following few redirects and only to https (or loopback http)
// URLs.
type fetcher struct {
	client   *http.Client
	timeout  time.Duration
	maxBytes int64
}

// newFetcher builds a fetcher over client (nil: a client of its own with
// the default transport).
func newFetcher(client *http.Client, timeout time.Duration, maxBytes int64) *fetcher {
	c := &http.Client{CheckRedirect: checkRedirect}
	if client != nil {
		c.Transport = client.Transport
	}
	return &fetcher{client: c, timeout: timeout, maxBytes: maxBytes}
}

// checkRedirect follows at most maxRedirects, each to a URL an issuer may
// be at.
func checkRedirect(req *http.Request, via []*http.Request) error {
	if len(via) >= maxRedirects {
		return fmt.Errorf("more than %d redirects", maxRedirects)
	}
	return config.CheckIssuerURL("redirect", req.URL.String())
}

// getJSON decodes the JSON document at url into v.
func (f *fetcher) getJSON(ctx context.Context, url string, v any) error {
	body, err := f.get(ctx, url)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(body, v); err != nil {
		return fmt.Errorf("not a JSON document: %w", err)
	}
	return nil
}

// get reads the body of a 200 answer at url. The request gets its own
// deadline, detached from ctx's cancellation but not its values: a fetch
// many requests wait for is not cut short by the first one leaving.
func (f *fetcher) get(ctx context.Context, url string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), f.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	res, err := f.client.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("HTTP %d", res.StatusCode)
	}
	return f.read(res)
}

// read reads a body within the byte bound: a declared length past it is
// refused before a byte is read, a longer body when it passes the bound.
func (f *fetcher) read(res *http.Response) ([]byte, error) {
	if res.ContentLength > f.maxBytes {
		return nil, fmt.Errorf("%w (%d bytes declared, %d read at most)", errTooLarge, res.ContentLength, f.maxBytes)
	}
	body, err := io.ReadAll(io.LimitReader(res.Body, f.maxBytes+1))
	if err != nil {
		return nil, err
	}
	if int64(len(body)) > f.maxBytes {
		return nil, fmt.Errorf("%w (more than %d bytes)", errTooLarge, f.maxBytes)
	}
	return body, nil
}
