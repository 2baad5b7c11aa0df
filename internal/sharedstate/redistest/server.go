// SPDX-License-Identifier: Apache-2.0

// Package redistest starts real redis-server processes for tests: one
// server (Start), a Redis Cluster (StartCluster) or a master with replicas
// watched by sentinels (StartSentinel), each on free loopback ports, in
// the test's temporary directory, without persistence, killed when the
// test ends. Without the redis-server binary a test is skipped, except
// under CI=true, where it fails: CI installs the server (Debian package
// redis-server) and must never pass by skipping.
package redistest

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// startTimeout bounds how long a server may take to answer PING.
const startTimeout = 10 * time.Second

// Server is one redis-server process.
type Server struct {
	t        testing.TB
	bin      string
	dir      string
	port     int
	password string
	// args are more of redis-server's arguments; conf, when set, is the
	// configuration file written before the first start (a sentinel's,
	// which the sentinel rewrites).
	args []string
	conf func(port int) string

	mu     sync.Mutex
	cmd    *exec.Cmd
	exited chan struct{} // closed when the process has exited
}

// Option changes how the server starts.
type Option func(*Server)

// WithPassword makes the server require a password (requirepass).
func WithPassword(pw string) Option { return func(s *Server) { s.password = pw } }

// WithArgs adds redis-server arguments, e.g. "--enable-debug-command",
// "local" for a test that makes a server slow with DEBUG SLEEP.
func WithArgs(args ...string) Option { return withArgs(args...) }

// withArgs adds redis-server arguments.
func withArgs(args ...string) Option { return func(s *Server) { s.args = append(s.args, args...) } }

// withConf makes the server start from a configuration file of conf(port).
func withConf(conf func(port int) string) Option { return func(s *Server) { s.conf = conf } }

// Start starts a server and registers its stop with t.Cleanup.
func Start(t testing.TB, opts ...Option) *Server {
	t.Helper()
	s := &Server{t: t, bin: binary(t), dir: t.TempDir()}
	for _, o := range opts {
		o(s)
	}
	var lastErr error
	for range 3 { // a free port can be taken between finding it and binding it
		var err error
		if s.port, err = freePort(); err != nil {
			t.Fatalf("redistest: %v", err)
		}
		if lastErr = s.start(); lastErr == nil {
			t.Cleanup(s.Stop)
			return s
		}
	}
	t.Fatalf("redistest: %v", lastErr)
	return nil
}

// binary finds redis-server, skipping the test without it (failing it
// under CI=true).
func binary(t testing.TB) string {
	t.Helper()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("redis-server is not installed; CI must install it (.ci/run does): %v", err)
		}
		t.Skip("redis-server is not installed (Debian package redis-server); skipping the shared-state test")
	}
	return bin
}

// Port is the server's port.
func (s *Server) Port() int { return s.port }

// Addr is host:port of the server.
func (s *Server) Addr() string { return net.JoinHostPort("127.0.0.1", strconv.Itoa(s.port)) }

// URL is the redis:// URL of the server, without the password.
func (s *Server) URL() string { return "redis://" + s.Addr() }

// Client returns a plain client of the server, closed with the test.
func (s *Server) Client() *redis.Client {
	c := s.newClient()
	s.t.Cleanup(func() { _ = c.Close() })
	return c
}

// newClient is a client of the server its caller closes.
func (s *Server) newClient() *redis.Client {
	return redis.NewClient(&redis.Options{Addr: s.Addr(), Password: s.password, Protocol: 2, DisableIdentity: true,
		DialTimeout: time.Second, ReadTimeout: 5 * time.Second})
}

// Running reports whether the server's process is running.
func (s *Server) Running() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cmd != nil
}

// Log is the server's log so far, for a failing test to show.
func (s *Server) Log() string {
	b, _ := os.ReadFile(filepath.Join(s.dir, "redis.log"))
	return string(b)
}

// Stop stops the server (SIGKILL: nothing is persisted anyway) and waits
// for it; stopping a stopped server does nothing.
func (s *Server) Stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd == nil {
		return
	}
	_ = s.cmd.Process.Kill()
	<-s.exited
	s.cmd, s.exited = nil, nil
}

// Restart starts a stopped server again on the same port, empty.
func (s *Server) Restart() {
	s.t.Helper()
	if err := s.start(); err != nil {
		s.t.Fatalf("redistest: restart: %v", err)
	}
}

// start runs redis-server and waits until it answers PING.
func (s *Server) start() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd != nil {
		return errors.New("already running")
	}
	var args []string
	if s.conf != nil {
		conf := filepath.Join(s.dir, "server.conf")
		if _, err := os.Stat(conf); err != nil { // a restart keeps what the server rewrote
			if err := os.WriteFile(conf, []byte(s.conf(s.port)), 0o600); err != nil {
				return err
			}
		}
		args = append(args, conf)
	}
	args = append(args,
		"--port", strconv.Itoa(s.port), "--bind", "127.0.0.1", "--protected-mode", "yes",
		"--save", "", "--appendonly", "no", "--dir", s.dir,
		"--logfile", filepath.Join(s.dir, "redis.log"), "--daemonize", "no",
	)
	if s.password != "" {
		args = append(args, "--requirepass", s.password)
	}
	args = append(args, s.args...)
	cmd := exec.Command(s.bin, args...)
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start redis-server: %w", err)
	}
	exited := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		close(exited)
	}()
	if err := s.waitReady(exited); err != nil {
		_ = cmd.Process.Kill()
		<-exited
		log, _ := os.ReadFile(filepath.Join(s.dir, "redis.log"))
		return fmt.Errorf("redis-server on port %d: %w; its log:\n%s", s.port, err, log)
	}
	s.cmd, s.exited = cmd, exited
	return nil
}

// waitReady polls PING until the server answers, it exits, or
// startTimeout passes.
func (s *Server) waitReady(exited <-chan struct{}) error {
	c := redis.NewClient(&redis.Options{Addr: s.Addr(), Password: s.password, Protocol: 2,
		DisableIdentity: true, MaxRetries: -1, DialTimeout: time.Second})
	defer c.Close()
	deadline := time.Now().Add(startTimeout)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		err := c.Ping(ctx).Err()
		cancel()
		if err == nil {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("no answer to PING within %s: %w", startTimeout, err)
		}
		select {
		case <-exited:
			return errors.New("exited early")
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// freePort asks the kernel for a free loopback port.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("find a free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
