// SPDX-License-Identifier: Apache-2.0

// Package demo is what the `demo` command adds to a served gateway: a demo
// Dagu that answers with the recordings of package fakedagu on a fixed
// loopback port (DefaultDaguPort), the key it accepts, a listener that gives way on a busy machine,
// and the banner that tells how to reach both.
package demo

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
)

// The demo Dagu's port: the same on every start, so that the banner's
// doctor and stdio lines stay true; 0 picks a free one each start.
const (
	// DefaultDaguPort is the demo Dagu's port on 127.0.0.1.
	DefaultDaguPort = 8095
	// DaguPortFlag and DaguPortEnv choose another.
	DaguPortFlag = "dagu-port"
	DaguPortEnv  = "GATEWAY_DEMO_DAGU_PORT"
)

// DaguPort resolves the demo Dagu's port as every setting is resolved:
// the flag when given, else the environment variable when set, else
// DefaultDaguPort.
func DaguPort(flagGiven bool, flagValue int, envValue string) (int, error) {
	port, from := flagValue, "--"+DaguPortFlag
	if !flagGiven {
		port, from = DefaultDaguPort, DaguPortEnv
		if envValue = strings.TrimSpace(envValue); envValue != "" {
			n, err := strconv.Atoi(envValue)
			if err != nil {
				return 0, fmt.Errorf("%s %q is not a port: use a number from 0 to 65535 (0 picks a free one)", DaguPortEnv, envValue)
			}
			port = n
		}
	}
	if port < 0 || port > 65535 {
		return 0, fmt.Errorf("%s %d is not a port: use a number from 0 to 65535 (0 picks a free one)", from, port)
	}
	return port, nil
}

// StartDagu serves the fake Dagu of a release (the current one with the
// newer foreach routes; timestamps moved to the last hour) on port of
// 127.0.0.1 (0: a free one), accepting key. It returns the server, to
// close, and its base URL. A port in use is an error that says what to do.
func StartDagu(key string, profile fakedagu.Profile, port int) (*http.Server, string, error) {
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	ln, err := net.Listen("tcp", addr)
	if errors.Is(err, syscall.EADDRINUSE) {
		return nil, "", fmt.Errorf("demo Dagu: %s: %w (is another demo running?): stop it, or choose another port with --%s or %s (0 picks a free one)",
			addr, syscall.EADDRINUSE, DaguPortFlag, DaguPortEnv)
	}
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
