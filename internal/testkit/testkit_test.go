// SPDX-License-Identifier: Apache-2.0

package testkit

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestClockMovesOnlyWhenAdvanced(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC)
	c := NewClock(start)
	if got := c.Now(); !got.Equal(start) {
		t.Fatalf("Now = %v, want the start %v", got, start)
	}
	if got := c.Now(); !got.Equal(start) {
		t.Fatalf("Now moved without Advance: %v", got)
	}
	c.Advance(90 * time.Second)
	c.Advance(time.Hour)
	if want := start.Add(time.Hour + 90*time.Second); !c.Now().Equal(want) {
		t.Fatalf("Now = %v after two advances, want %v", c.Now(), want)
	}
}

// TestClockIsSafeForConcurrentUse is meant for -race: readers and
// advancers share one clock, and every advance counts.
func TestClockIsSafeForConcurrentUse(t *testing.T) {
	t.Parallel()
	start := time.Unix(1_000_000, 0)
	c := NewClock(start)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 100 {
				c.Advance(time.Millisecond)
				_ = c.Now()
			}
		})
	}
	wg.Wait()
	if want := start.Add(800 * time.Millisecond); !c.Now().Equal(want) {
		t.Fatalf("Now = %v, want %v", c.Now(), want)
	}
}

// TestLogBufferKeepsEveryLineOfConcurrentWriters is meant for -race: a
// logger shared by goroutines writes into the buffer while the test reads.
func TestLogBufferKeepsEveryLineOfConcurrentWriters(t *testing.T) {
	t.Parallel()
	var buf LogBuffer
	logger := slog.New(slog.NewTextHandler(&buf, nil))
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := range 50 {
				logger.Info("line", "writer", w, "n", i)
				_ = buf.String()
			}
		})
	}
	wg.Wait()
	out := buf.String()
	if n := strings.Count(out, "msg=line"); n != 200 {
		t.Fatalf("%d lines, want 200:\n%s", n, out)
	}
	for w := range 4 {
		if !strings.Contains(out, fmt.Sprintf("writer=%d n=49", w)) {
			t.Fatalf("writer %d's last line is missing", w)
		}
	}
}

func TestLogBufferZeroValueIsEmpty(t *testing.T) {
	t.Parallel()
	var buf LogBuffer
	if buf.String() != "" {
		t.Fatalf("a new buffer reads %q", buf.String())
	}
	if n, err := buf.Write([]byte("abc")); n != 3 || err != nil {
		t.Fatalf("Write = %d, %v", n, err)
	}
	if buf.String() != "abc" {
		t.Fatalf("buffer reads %q, want abc", buf.String())
	}
}

func TestLogBufferJSONLinesDecodesEachLine(t *testing.T) {
	t.Parallel()
	var buf LogBuffer
	if lines := buf.JSONLines(t); len(lines) != 0 {
		t.Fatalf("an empty buffer has lines: %v", lines)
	}
	logger := slog.New(slog.NewJSONHandler(&buf, nil))
	logger.Info("first", "n", 1)
	logger.Warn("second", "route", "/dags")
	lines := buf.JSONLines(t)
	if len(lines) != 2 {
		t.Fatalf("%d lines, want 2: %v", len(lines), lines)
	}
	if lines[0]["msg"] != "first" || lines[0]["n"] != float64(1) {
		t.Errorf("first line: %v", lines[0])
	}
	if lines[1]["msg"] != "second" || lines[1]["level"] != "WARN" || lines[1]["route"] != "/dags" {
		t.Errorf("second line: %v", lines[1])
	}
}

// TestLogBufferJSONLinesFailsOnText: a line that is not JSON fails the
// test that reads it (checked on a probe TB so this test stays green).
func TestLogBufferJSONLinesFailsOnText(t *testing.T) {
	t.Parallel()
	var buf LogBuffer
	slog.New(slog.NewTextHandler(&buf, nil)).Info("plain text")
	probe := &fatalProbe{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		buf.JSONLines(probe)
	}()
	<-done
	if !probe.failed {
		t.Fatal("a text line was decoded as JSON")
	}
}

// fatalProbe records a Fatalf and ends the goroutine that called it, as
// testing.T does, without failing the real test.
type fatalProbe struct {
	testing.TB
	failed bool
}

func (p *fatalProbe) Helper() {}

func (p *fatalProbe) Fatalf(string, ...any) {
	p.failed = true
	runtime.Goexit()
}

func TestCAPEMIsASelfSignedCA(t *testing.T) {
	t.Parallel()
	data := CAPEM(t)
	block, rest := pem.Decode(data)
	if block == nil || block.Type != "CERTIFICATE" || len(rest) != 0 {
		t.Fatalf("not one PEM certificate: %q", data)
	}
	cert, err := x509.ParseCertificate(block.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	if !cert.IsCA || cert.KeyUsage&x509.KeyUsageCertSign == 0 {
		t.Fatalf("not a CA: IsCA %v, key usage %v", cert.IsCA, cert.KeyUsage)
	}
	if err := cert.CheckSignatureFrom(cert); err != nil {
		t.Fatalf("not self-signed: %v", err)
	}
	if !x509.NewCertPool().AppendCertsFromPEM(data) {
		t.Fatal("a cert pool refuses it")
	}
	if string(CAPEM(t)) == string(data) {
		t.Fatal("two calls returned the same certificate")
	}
}

// TestCAPEMSignedNoTestServer: a client that trusts only the CA refuses an
// httptest TLS server.
func TestCAPEMSignedNoTestServer(t *testing.T) {
	t.Parallel()
	srv := httptest.NewTLSServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	defer srv.Close()
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(CAPEM(t))
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	resp, err := client.Get(srv.URL)
	if err == nil {
		resp.Body.Close()
		t.Fatal("the test server was trusted")
	}
	var unknown x509.UnknownAuthorityError
	if !errors.As(err, &unknown) {
		t.Fatalf("error %v, want an unknown authority", err)
	}
}

func TestLogBufferLimitKeepsTheFirstBytesAndCountsAll(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		limit  int
		writes []string
		kept   string
		tail   string
	}{
		{name: "no limit", writes: []string{"abc", "def"}, kept: "abcdef", tail: "ef"},
		{name: "under the limit", limit: 10, writes: []string{"abc", "def"}, kept: "abcdef", tail: "ef"},
		{name: "a write crosses it", limit: 4, writes: []string{"abc", "def"}, kept: "abcd", tail: "cd"},
		{name: "writes past it", limit: 3, writes: []string{"abc", "def", "gh"}, kept: "abc", tail: "bc"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			buf := LogBuffer{Limit: tt.limit}
			var total int64
			for _, w := range tt.writes {
				if n, err := buf.Write([]byte(w)); n != len(w) || err != nil {
					t.Fatalf("Write(%q) = %d, %v", w, n, err)
				}
				total += int64(len(w))
			}
			if buf.String() != tt.kept {
				t.Errorf("kept %q, want %q", buf.String(), tt.kept)
			}
			if buf.Tail(2) != tt.tail {
				t.Errorf("Tail(2) = %q, want %q", buf.Tail(2), tt.tail)
			}
			if buf.Total() != total {
				t.Errorf("Total = %d, want %d", buf.Total(), total)
			}
		})
	}
}
