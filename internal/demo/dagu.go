// SPDX-License-Identifier: Apache-2.0

// Package demo is what the `demo` command adds to a served gateway: a demo
// Dagu that answers with the recordings of package fakedagu on a loopback
// port, the key it accepts, a listener that gives way on a busy machine,
// and the banner that tells how to reach both.
package demo

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/http"
	"syscall"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
)

// StartDagu serves the fake Dagu of a release (the current one with the
// newer foreach routes; timestamps moved to the last hour) on an ephemeral
// loopback port, accepting key. It returns the server, to close, and its
// base URL.
func StartDagu(key string, profile fakedagu.Profile) (*http.Server, string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, "", fmt.Errorf("demo Dagu: %w", err)
	}
	fake := fakedagu.New(fakedagu.Options{
		APIKey:  key,
		Role:    "admin",
		Foreach: fakedagu.ForeachRoutes,
		Rebase:  time.Now().Add(-30 * time.Minute),
		Profile: profile,
	})
	srv := &http.Server{Handler: fake, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	return srv, "http://" + ln.Addr().String(), nil
}

// Listen listens on the configured address; when the operator did not
// choose one (explicit is false) and the default port is taken, any free
// loopback port will do, so `gateway demo` works on a busy machine.
func Listen(addr string, explicit bool) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if err == nil || explicit || !errors.Is(err, syscall.EADDRINUSE) {
		return ln, err
	}
	return net.Listen("tcp", "127.0.0.1:0")
}

// NewKey makes up a random key for the demo Dagu.
func NewKey() (string, error) {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return "dagu_demo_" + hex.EncodeToString(b), nil
}
