// SPDX-License-Identifier: Apache-2.0

//go:build hostile && linux

package hostile

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"
)

// TestOnlyTheNamedHeaderNamesTheClient is finding 4 of issue 38: the
// trusted proxy appends only Forwarded and passes the caller's own
// X-Forwarded-For through. With --client-ip-header Forwarded and
// --rate-limit 1 --rate-burst 1, a caller writing a new X-Forwarded-For
// for each read still reads from the one bucket of the address the proxy
// named (before: 12 of 12 spoofed reads passed, X-Forwarded-For being
// preferred). The reads are of the reference topics, which a key Dagu
// refused may read, under its address's limit.
func TestOnlyTheNamedHeaderNamesTheClient(t *testing.T) {
	d := daguUnder
	g := startGateway(t, d, "", append(append([]string{}, passthrough...), "--rate-limit", "1", "--rate-burst", "1"),
		"GATEWAY_TRUSTED_PROXIES=127.0.0.1/32", "GATEWAY_CLIENT_IP_HEADER=Forwarded")
	key := madeUpKey()
	const reads = 12
	start := time.Now()
	passed := 0
	for i := range reads {
		h := http.Header{"Forwarded": {"for=198.51.100.7"}, "X-Forwarded-For": {fmt.Sprintf("203.0.113.%d", i+1)}}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		if o := read(ctx, g.Base, key, `{"target":"references"}`, h); o.ok {
			passed++
		}
		cancel()
	}
	took := time.Since(start)
	t.Logf("RESULT 38.4 spoofed X-Forwarded-For behind a Forwarded proxy: %d of %d reads passed in %s at --rate-limit 1 --rate-burst 1", passed, reads, took.Round(time.Millisecond))
	if passed == 0 {
		t.Fatal("no read passed: the reference read of a refused key is not what is limited here")
	}
	// The burst, then one a second.
	if allowed := 1 + int(took/time.Second) + 1; passed > allowed {
		t.Errorf("%d of %d spoofed reads passed in %s, at most %d should: the caller's X-Forwarded-For picked its bucket", passed, reads, took, allowed)
	}
}
