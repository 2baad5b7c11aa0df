// SPDX-License-Identifier: Apache-2.0

package frontdoor

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"time"
)

// Server timeouts. The write timeout must cover a whole tool call, which may
// make several upstream calls, so it is a multiple of the usual upstream
// timeout rather than a few seconds.
const (
	readHeaderTimeout      = 10 * time.Second
	readTimeout            = 60 * time.Second
	defaultWriteTimeout    = 2 * time.Minute
	idleTimeout            = 2 * time.Minute
	maxHeaderBytes         = 64 << 10
	defaultShutdownTimeout = 10 * time.Second
)

// ServerOptions configures NewHTTPServer.
type ServerOptions struct {
	// Addr is the listen address used by Run.
	Addr string
	// Handler is usually the result of New.
	Handler http.Handler
	// Logger receives start/stop messages and net/http's own errors. Nil
	// discards.
	Logger *slog.Logger
	// ShutdownTimeout bounds graceful shutdown; 0 means 10s.
	ShutdownTimeout time.Duration
	// WriteTimeout bounds writing one response; 0 means 2 minutes.
	WriteTimeout time.Duration
}

// Server is an http.Server with sane timeouts and graceful shutdown
// tied to a context.
type Server struct {
	server          *http.Server
	shutdownTimeout time.Duration
	logger          *slog.Logger
}

// NewHTTPServer prepares a server; nothing listens until Run or Serve.
func NewServer(o ServerOptions) *Server {
	logger := o.Logger
	if logger == nil {
		logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	guard := newConnGuard(maxConnections)
	return &Server{
		server: &http.Server{
			Addr:              o.Addr,
			Handler:           o.Handler,
			ReadHeaderTimeout: readHeaderTimeout,
			ReadTimeout:       readTimeout,
			WriteTimeout:      orDefault(o.WriteTimeout, defaultWriteTimeout),
			IdleTimeout:       idleTimeout,
			MaxHeaderBytes:    maxHeaderBytes,
			ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
			ConnState:         guard.track,
			ConnContext:       guard.connContext,
		},
		shutdownTimeout: orDefault(o.ShutdownTimeout, defaultShutdownTimeout),
		logger:          logger,
	}
}

// Run listens on the configured address and serves until ctx is cancelled,
// then shuts down gracefully. See Serve.
func (s *Server) Run(ctx context.Context) error {
	ln, err := net.Listen("tcp", s.server.Addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", s.server.Addr, err)
	}
	return s.Serve(ctx, ln)
}

// Serve serves on ln until ctx is cancelled or serving fails. On
// cancellation it stops accepting connections and waits for in-flight
// requests up to the shutdown timeout, then closes whatever is left and
// reports that. A clean shutdown returns nil. Serve closes ln.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	s.logger.Info("http server listening", "addr", ln.Addr().String())
	served := make(chan error, 1)
	go func() { served <- s.server.Serve(ln) }()

	select {
	case err := <-served:
		return fmt.Errorf("http server: %w", err)
	case <-ctx.Done():
	}
	s.logger.Info("http server shutting down", "timeout", s.shutdownTimeout)
	shutdownCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), s.shutdownTimeout)
	defer cancel()
	err := s.server.Shutdown(shutdownCtx)
	if errors.Is(err, context.DeadlineExceeded) {
		_ = s.server.Close()
		err = fmt.Errorf("http server: requests still running after %s were cut off", s.shutdownTimeout)
	}
	<-served // Serve has returned http.ErrServerClosed
	if err == nil {
		s.logger.Info("http server stopped")
	}
	return err
}
