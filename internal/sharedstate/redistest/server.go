// SPDX-License-Identifier: Apache-2.0

// Package redistest starts a real redis-server for tests: on a free
// loopback port, in the test's temporary directory, without persistence,
// stopped when the test ends. Without the redis-server binary a test is
// skipped, except under CI=true, where it fails: CI installs the server
// (Debian package redis-server) and must never pass by skipping.
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

	mu     sync.Mutex
	cmd    *exec.Cmd
	exited chan struct{} // closed when the process has exited
}

// Option changes how the server starts.
type Option func(*Server)

// WithPassword makes the server require a password (requirepass).
func WithPassword(pw string) Option { return func(s *Server) { s.password = pw } }

// Start starts a server and registers its stop with t.Cleanup.
func Start(t testing.TB, opts ...Option) *Server {
	t.Helper()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("redis-server is not installed; CI must install it (.ci/run does): %v", err)
		}
		t.Skip("redis-server is not installed (Debian package redis-server); skipping the shared-state test")
	}
	s := &Server{t: t, bin: bin, dir: t.TempDir()}
	for _, o := range opts {
		o(s)
	}
	var lastErr error
	for range 3 { // a free port can be taken between finding it and binding it
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

// Addr is host:port of the server.
func (s *Server) Addr() string { return net.JoinHostPort("127.0.0.1", strconv.Itoa(s.port)) }

// URL is the redis:// URL of the server, without the password.
func (s *Server) URL() string { return "redis://" + s.Addr() }

// Client returns a plain client of the server, closed with the test.
func (s *Server) Client() *redis.Client {
	c := redis.NewClient(&redis.Options{Addr: s.Addr(), Password: s.password, Protocol: 2, DisableIdentity: true})
	s.t.Cleanup(func() { _ = c.Close() })
	return c
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
	args := []string{
		"--port", strconv.Itoa(s.port), "--bind", "127.0.0.1", "--protected-mode", "yes",
		"--save", "", "--appendonly", "no", "--dir", s.dir,
		"--logfile", filepath.Join(s.dir, "redis.log"), "--daemonize", "no",
	}
	if s.password != "" {
		args = append(args, "--requirepass", s.password)
	}
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
