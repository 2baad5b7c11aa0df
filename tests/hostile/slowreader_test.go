// SPDX-License-Identifier: Apache-2.0

//go:build hostile && linux

package hostile

import (
	"context"
	"fmt"
	"io"
	"net"
	"syscall"
	"time"
)

// realisticLink dials as a client on a thin link would: segments of 1460
// bytes (an Ethernet MSS; loopback's is 64 KiB) and a 4 KiB receive
// buffer, so the gateway's writes wait for the reader as they would over
// a network.
var realisticLink = &net.Dialer{Timeout: 5 * time.Second, Control: func(_, _ string, c syscall.RawConn) error {
	var serr error
	err := c.Control(func(fd uintptr) {
		if serr = syscall.SetsockoptInt(int(fd), syscall.IPPROTO_TCP, syscall.TCP_MAXSEG, 1460); serr == nil {
			serr = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4096)
		}
	})
	if err != nil {
		return err
	}
	return serr
}}

// slowReadAt sends body to the endpoint at url over a realistic link and
// reads the answer at rate bytes a second until ctx ends (the reader then
// goes away, as one reconnecting would) or the answer does.
func slowReadAt(ctx context.Context, url, bearer string, body []byte, rate int) {
	conn, err := realisticLink.DialContext(ctx, "tcp", hostOf(url))
	if err != nil {
		sleep(ctx, 100*time.Millisecond)
		return
	}
	defer conn.Close()
	head := requestHeadAt(url, bearer, fmt.Sprintf("Content-Length: %d\r\nConnection: close\r\n\r\n", len(body)))
	if _, err := io.WriteString(conn, head+string(body)); err != nil {
		return
	}
	const tick = 100 * time.Millisecond
	buf := make([]byte, max(rate/int(time.Second/tick), 1))
	for ctx.Err() == nil {
		_ = conn.SetReadDeadline(time.Now().Add(time.Second))
		if _, err := io.ReadFull(conn, buf); err != nil && !isTimeout(err) {
			return
		}
		sleep(ctx, tick)
	}
}
