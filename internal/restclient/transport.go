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
	pool := connPoolSize(cfg.Concurrency)
	transport := &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           dialer.DialContext,
		TLSClientConfig:       tlsConfig,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          pool,
		MaxIdleConnsPerHost:   pool,
		MaxConnsPerHost:       pool,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ExpectContinueTimeout: time.Second,
	}
	return &http.Client{Transport: withTracing(transport), CheckRedirect: noRedirects}, nil
}

// connPoolSize is how many connections to Dagu the transport may hold open,
// and keep idle, at once. The concurrency cap frees a call's slot when its
// answer's headers arrive, so up to concurrency calls can be on the wire
// while as many earlier answers are still being read: twice the cap. The
// idle pool is as large as that bound, so no connection is ever closed for
// want of room and re-dialled by the next call (Dagu is one host: every
// idle connection is to it).
func connPoolSize(concurrency int) int {
	if concurrency <= 0 {
		concurrency = DefaultConcurrency
	}
	return 2 * concurrency
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
