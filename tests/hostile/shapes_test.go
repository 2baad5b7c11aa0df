// SPDX-License-Identifier: Apache-2.0

//go:build hostile && linux

package hostile

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"syscall"
	"time"
)

// Bodies and values of the attack shapes, built once.
var (
	hugeValue      = strings.Repeat("a", 900<<10)
	initializeBody = []byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"hostile","version":"1"}}}`)
	deepBody       = rpcBody(`{"target":"dags","x":` + strings.Repeat("[", 512<<10) + strings.Repeat("]", 512<<10) + `}`)
	longURIArgs    = `{"uri":"dagu://dags/` + strings.Repeat("a", 1<<20) + `"}`
)

// hostOf is host:port of a base URL (or of an endpoint's URL).
func hostOf(base string) string {
	host, _, _ := strings.Cut(strings.TrimPrefix(base, "http://"), "/")
	return host
}

// pathOf is the path of an endpoint's URL.
func pathOf(url string) string {
	_, path, _ := strings.Cut(strings.TrimPrefix(url, "http://"), "/")
	return "/" + path
}

// requestHead is the head of a POST /mcp request; extra lines end in \r\n.
func requestHead(base, bearer, extra string) string {
	return requestHeadAt(base+"/mcp", bearer, extra)
}

// requestHeadAt is the head of a POST request to the endpoint at url.
func requestHeadAt(url, bearer, extra string) string {
	return "POST " + pathOf(url) + " HTTP/1.1\r\nHost: " + hostOf(url) + "\r\nAuthorization: Bearer " + bearer +
		"\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n" + extra
}

// smallReceiveWindow dials with a 4 KiB receive buffer, as a slow reader
// on a thin link would.
var smallReceiveWindow = &net.Dialer{Timeout: 5 * time.Second, Control: func(_, _ string, c syscall.RawConn) error {
	var serr error
	err := c.Control(func(fd uintptr) {
		serr = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4096)
	})
	if err != nil {
		return err
	}
	return serr
}}

// slowRead sends body and reads the answer 4 KiB per 100 ms until ctx
// ends or the answer does.
func slowRead(ctx context.Context, base, bearer string, body []byte) {
	conn, err := smallReceiveWindow.DialContext(ctx, "tcp", hostOf(base))
	if err != nil {
		sleep(ctx, 100*time.Millisecond)
		return
	}
	defer conn.Close()
	head := requestHead(base, bearer, fmt.Sprintf("Content-Length: %d\r\nConnection: close\r\n\r\n", len(body)))
	if _, err := io.WriteString(conn, head+string(body)); err != nil {
		return
	}
	buf := make([]byte, 4096)
	for ctx.Err() == nil {
		_ = conn.SetReadDeadline(time.Now().Add(time.Second))
		if _, err := conn.Read(buf); err != nil && !isTimeout(err) {
			return
		}
		sleep(ctx, 100*time.Millisecond)
	}
}

func isTimeout(err error) bool {
	ne, ok := err.(net.Error)
	return ok && ne.Timeout()
}

// slowHeaders holds n connections whose request headers never end: one
// more byte per connection each second. It returns how many it opened.
func slowHeaders(ctx context.Context, base string, n int) int {
	var conns []net.Conn
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	dialer := &net.Dialer{Timeout: time.Second}
	for range n {
		if ctx.Err() != nil {
			break
		}
		c, err := dialer.DialContext(ctx, "tcp", hostOf(base))
		if err != nil {
			continue
		}
		_ = c.SetWriteDeadline(time.Now().Add(time.Second))
		if _, err := io.WriteString(c, "POST /mcp HTTP/1.1\r\nHost: "+hostOf(base)+"\r\nX-Slow: "); err != nil {
			c.Close()
			continue
		}
		conns = append(conns, c)
	}
	for ctx.Err() == nil {
		sleep(ctx, time.Second)
		for _, c := range conns {
			_ = c.SetWriteDeadline(time.Now().Add(100 * time.Millisecond))
			_, _ = c.Write([]byte("a"))
		}
	}
	return len(conns)
}

// endlessBody sends a chunked tools/call body that never ends, 1 KiB per
// 50 ms, until ctx ends or the gateway closes the connection.
func endlessBody(ctx context.Context, base, bearer string) {
	conn, err := net.DialTimeout("tcp", hostOf(base), 5*time.Second)
	if err != nil {
		sleep(ctx, 100*time.Millisecond)
		return
	}
	defer conn.Close()
	start := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"dagu_read","arguments":{"target":"dags","x":"`
	chunk := func(s string) string { return fmt.Sprintf("%x\r\n%s\r\n", len(s), s) }
	if _, err := io.WriteString(conn, requestHead(base, bearer, "Transfer-Encoding: chunked\r\n\r\n")+chunk(start)); err != nil {
		return
	}
	filler := chunk(strings.Repeat("a", 1024))
	for ctx.Err() == nil {
		_ = conn.SetWriteDeadline(time.Now().Add(time.Second))
		if _, err := io.WriteString(conn, filler); err != nil {
			return
		}
		sleep(ctx, 50*time.Millisecond)
	}
}

// longQuery sends a request whose URL carries a 1 MiB query.
func longQuery(ctx context.Context, base, bearer string) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+"/mcp?q="+strings.Repeat("a", 1<<20), strings.NewReader(string(rpcBody(victimRead))))
	if err != nil {
		return
	}
	req.Header.Set("Authorization", "Bearer "+bearer)
	req.Header.Set("Content-Type", "application/json")
	if res, err := client.Do(req); err == nil {
		_, _ = io.Copy(io.Discard, io.LimitReader(res.Body, 1<<20))
		res.Body.Close()
	}
}

// declaredBodyNeverSent sends a request whose headers declare a body of
// length bytes that never comes, and holds the connection until the
// gateway answers or ctx ends; after an answer it waits 50 ms before the
// worker's next call.
func declaredBodyNeverSent(ctx context.Context, base, bearer string, length int) {
	declaredBodyNeverSentAt(ctx, base+"/mcp", bearer, length)
}

// declaredBodyNeverSentAt is declaredBodyNeverSent to the endpoint at url.
func declaredBodyNeverSentAt(ctx context.Context, url, bearer string, length int) {
	conn, err := net.DialTimeout("tcp", hostOf(url), 5*time.Second)
	if err != nil {
		sleep(ctx, 100*time.Millisecond)
		return
	}
	defer conn.Close()
	if _, err := io.WriteString(conn, requestHeadAt(url, bearer, fmt.Sprintf("Content-Length: %d\r\n\r\n", length))); err != nil {
		return
	}
	buf := make([]byte, 512)
	for ctx.Err() == nil {
		_ = conn.SetReadDeadline(time.Now().Add(time.Second))
		if _, err := conn.Read(buf); err == nil || !isTimeout(err) {
			sleep(ctx, 50*time.Millisecond)
			return
		}
	}
}
