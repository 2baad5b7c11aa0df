// SPDX-License-Identifier: Apache-2.0

package sharedstate

import (
	"context"
	"errors"
	"io"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
)

// fakeServer is a TCP server on loopback that misbehaves: it never
// answers (silent), or answers every request with bytes that are not
// RESP (garbage).
type fakeServer struct {
	l     net.Listener
	wg    sync.WaitGroup
	mu    sync.Mutex
	conns []net.Conn
}

func startFakeServer(t *testing.T, garbage bool) *fakeServer {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	f := &fakeServer{l: l}
	f.wg.Go(func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			f.mu.Lock()
			f.conns = append(f.conns, c)
			f.mu.Unlock()
			f.wg.Go(func() { serveFake(c, garbage) })
		}
	})
	t.Cleanup(func() {
		_ = l.Close()
		f.mu.Lock()
		for _, c := range f.conns {
			_ = c.Close()
		}
		f.mu.Unlock()
		f.wg.Wait()
	})
	return f
}

func serveFake(c net.Conn, garbage bool) {
	buf := make([]byte, 4096)
	for {
		if _, err := c.Read(buf); err != nil {
			return
		}
		if garbage {
			if _, err := io.WriteString(c, "%%% this is not RESP %%%\r\n"); err != nil {
				return
			}
		}
	}
}

func (f *fakeServer) url() string { return "redis://" + f.l.Addr().String() }

func TestMisbehavingServerFallsBack(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		garbage bool
		reason  string
	}{
		{"silent server times out", false, reasonTimeout},
		{"garbage answers", true, reasonProtocol},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			srv := startFakeServer(t, c.garbage)
			reg := prometheus.NewRegistry()
			s, err := Open(Options{URL: srv.url(), Registerer: reg})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			ctx := context.Background()
			key := Key{Kind: "run", Fingerprint: "anon", Parts: []string{"r1"}}
			if _, ok := s.Get(ctx, key); ok {
				t.Fatal("a misbehaving server must read as a miss")
			}
			if got := testutil.ToFloat64(s.metrics.errors.WithLabelValues("cache_get", c.reason)); got != 1 {
				t.Fatalf("errors{cache_get,%s} = %v, want 1", c.reason, got)
			}
			if testutil.ToFloat64(s.metrics.up) != 0 {
				t.Fatal("up must be 0")
			}
			s.Set(ctx, key, []byte("v"), time.Minute)
			lim, _ := s.RateLimiter(5, 5)
			if _, err := lim.Allow(ctx, "alice"); !errors.Is(err, ErrUnavailable) {
				t.Fatalf("Allow: %v, want ErrUnavailable", err)
			}
			sem, _ := s.Semaphore("upstream", 4, 10*time.Second)
			if _, err := sem.Acquire(ctx, 0); !errors.Is(err, ErrUnavailable) {
				t.Fatalf("Acquire: %v, want ErrUnavailable", err)
			}
			reads := 0
			v, err := s.Load(ctx, key, time.Minute, func(context.Context) ([]byte, bool, error) {
				reads++
				return []byte("direct"), true, nil
			})
			if err != nil || string(v) != "direct" || reads != 1 {
				t.Fatalf("Load = %q, %v after %d reads; want a direct read", v, err, reads)
			}
			if _, err := s.Probe(ctx); !errors.Is(err, ErrUnavailable) {
				t.Fatalf("Probe: %v, want ErrUnavailable", err)
			}
		})
	}
}

func TestNilStoreFallsBack(t *testing.T) {
	t.Parallel()
	var s *Store
	ctx := context.Background()
	key := Key{Kind: "spec", Fingerprint: "anon", Parts: []string{"a"}}
	if _, ok := s.Get(ctx, key); ok {
		t.Fatal("nil store Get must miss")
	}
	s.Set(ctx, key, []byte("v"), time.Minute)
	lim, err := s.RateLimiter(1, 1)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lim.Allow(ctx, "bob"); !errors.Is(err, ErrUnavailable) {
		t.Fatalf("nil store Allow: %v", err)
	}
	sem, err := s.Semaphore("x", 1, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sem.Acquire(ctx, 0); !errors.Is(err, ErrUnavailable) {
		t.Fatalf("nil store Acquire: %v", err)
	}
	v, err := s.Load(ctx, key, time.Minute, func(context.Context) ([]byte, bool, error) { return []byte("x"), true, nil })
	if err != nil || string(v) != "x" {
		t.Fatalf("nil store Load = %q, %v", v, err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
}
