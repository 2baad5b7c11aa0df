// SPDX-License-Identifier: Apache-2.0

package frontdoor

import (
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// blockingServer serves a handler that signals started and then waits for
// release, so a test can hold a request in flight across shutdown.
type blockingServer struct {
	srv      *Server
	url      string
	started  chan struct{}
	release  chan struct{}
	shutdown chan struct{}
	done     chan error
	cancel   context.CancelFunc
}

func startBlockingServer(t *testing.T, shutdownTimeout time.Duration) *blockingServer {
	t.Helper()
	b := &blockingServer{
		started:  make(chan struct{}, 1),
		release:  make(chan struct{}),
		shutdown: make(chan struct{}),
		done:     make(chan error, 1),
	}
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b.started <- struct{}{}
		<-b.release
		_, _ = io.WriteString(w, "finished")
	})
	b.srv = NewServer(ServerOptions{Handler: handler, ShutdownTimeout: shutdownTimeout})
	b.srv.server.RegisterOnShutdown(func() { close(b.shutdown) })
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	b.url = "http://" + ln.Addr().String() + "/"
	ctx, cancel := context.WithCancel(context.Background())
	b.cancel = cancel
	go func() { b.done <- b.srv.Serve(ctx, ln) }()
	t.Cleanup(func() {
		cancel()
		select {
		case <-b.release:
		default:
			close(b.release)
		}
	})
	return b
}

// getInBackground runs a GET in the background and delivers its body or error.
func getInBackground(url string) <-chan string {
	out := make(chan string, 1)
	go func() {
		resp, err := http.Get(url)
		if err != nil {
			out <- "error: " + err.Error()
			return
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		out <- string(body)
	}()
	return out
}

func TestHTTPServerGracefulShutdown(t *testing.T) {
	t.Parallel()
	b := startBlockingServer(t, time.Minute)
	reply := getInBackground(b.url)
	<-b.started

	b.cancel()
	<-b.shutdown
	select {
	case err := <-b.done:
		t.Fatalf("Serve returned %v while a request was in flight", err)
	default:
	}
	close(b.release)

	if got := <-reply; got != "finished" {
		t.Errorf("in-flight request got %q", got)
	}
	if err := <-b.done; err != nil {
		t.Errorf("graceful shutdown returned %v", err)
	}
}

func TestHTTPServerShutdownTimeout(t *testing.T) {
	t.Parallel()
	b := startBlockingServer(t, time.Millisecond)
	reply := getInBackground(b.url)
	<-b.started

	b.cancel()
	err := <-b.done
	if err == nil || !strings.Contains(err.Error(), "cut off") {
		t.Fatalf("expected a cut-off error, got %v", err)
	}
	if got := <-reply; !strings.HasPrefix(got, "error:") {
		t.Errorf("request cut off at shutdown got %q", got)
	}
}

func TestHTTPServerRunReportsListenError(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	srv := NewServer(ServerOptions{Addr: ln.Addr().String(), Handler: http.NotFoundHandler()})
	if err := srv.Run(context.Background()); err == nil || !strings.Contains(err.Error(), "listen on") {
		t.Fatalf("Run on a busy port returned %v", err)
	}
}

func TestNewHTTPServerTimeouts(t *testing.T) {
	t.Parallel()
	s := NewServer(ServerOptions{Addr: "127.0.0.1:0", Handler: http.NotFoundHandler()}).server
	if s.ReadHeaderTimeout <= 0 || s.ReadTimeout <= 0 || s.WriteTimeout <= 0 || s.IdleTimeout <= 0 || s.MaxHeaderBytes <= 0 {
		t.Errorf("missing a timeout or limit: %+v", s)
	}
}
