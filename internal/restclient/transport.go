// SPDX-License-Identifier: Apache-2.0

package restclient

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"time"
)

// newHTTPClient builds the pooled, TLS-configured HTTP client under resty.
// Redirects are not followed: the answer is returned as is and, not being
// 2xx, becomes an error answer (Error.Status) (Dagu only redirects trailing slashes, which
// the gateway never sends).
func newHTTPClient(cfg Config) (*http.Client, error) {
	if cfg.Transport != nil {
		return &http.Client{Transport: withTracing(cfg.Transport), CheckRedirect: noRedirects}, nil
	}
	tlsConfig, err := newTLSConfig(cfg)
	if err != nil {
		return nil, err
	}
	dialer := &net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}
	transport := &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           dialer.DialContext,
		TLSClientConfig:       tlsConfig,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          64,
		MaxIdleConnsPerHost:   16,
		MaxConnsPerHost:       64,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ExpectContinueTimeout: time.Second,
	}
	return &http.Client{Transport: withTracing(transport), CheckRedirect: noRedirects}, nil
}

func noRedirects(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }

func newTLSConfig(cfg Config) (*tls.Config, error) {
	tc := &tls.Config{MinVersion: tls.VersionTLS12, InsecureSkipVerify: cfg.InsecureSkipVerify} //nolint:gosec // opt-in for tests
	if cfg.CAFile == "" {
		return tc, nil
	}
	pem, err := os.ReadFile(cfg.CAFile)
	if err != nil {
		return nil, fmt.Errorf("dagu CA file: %w", err)
	}
	pool, err := x509.SystemCertPool()
	if err != nil || pool == nil {
		pool = x509.NewCertPool()
	}
	if !pool.AppendCertsFromPEM(pem) {
		return nil, errors.New("dagu CA file: no PEM certificates found")
	}
	tc.RootCAs = pool
	return tc, nil
}
