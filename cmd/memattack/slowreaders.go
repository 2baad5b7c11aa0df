// SPDX-License-Identifier: Apache-2.0

package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"syscall"
	"time"
)

// readSlowly has callers each ask for a tail of the big log (each its own
// window, so no cache or collapsed read serves two) on a socket with a
// 4 KiB receive window, and read nothing for hold.
func readSlowly(url string, callers int, hold time.Duration) string {
	host := strings.SplitN(strings.TrimPrefix(url, "http://"), "/", 2)[0]
	var outcomes tally
	var wg sync.WaitGroup
	for i := range callers {
		body := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"dagu_read","arguments":{"target":"step_log","name":"big_log_job","dagRunId":"0356UUo2lMk0yUwBDR9c0n","stepName":"spew","query":"stream=stdout&tail=%d"}}}`, 10000-i)
		wg.Go(func() { outcomes.add(holdAnswer(host, body, hold)) })
	}
	wg.Wait()
	return fmt.Sprintf("%d slow readers held their answers %s: status lines %v", callers, hold, &outcomes)
}

// holdAnswer sends one request on a small-window socket, waits hold, and
// returns the status line it finds then.
func holdAnswer(host, body string, hold time.Duration) string {
	dialer := net.Dialer{Control: func(_, _ string, c syscall.RawConn) error {
		return c.Control(func(fd uintptr) {
			_ = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4096)
		})
	}}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := dialer.DialContext(ctx, "tcp", host)
	if err != nil {
		return "dial error"
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /mcp HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: %d\r\n\r\n%s", host, len(body), body)
	time.Sleep(hold)
	_ = conn.SetReadDeadline(time.Now().Add(time.Second))
	head := make([]byte, 64)
	n, _ := io.ReadAtLeast(conn, head, 12)
	line, _, _ := strings.Cut(string(head[:n]), "\r\n")
	if line == "" {
		return "nothing"
	}
	return line
}
