// SPDX-License-Identifier: Apache-2.0

// Command memattack runs the memory attacks of issue 28 against a running
// gateway and reports the gateway process's peak resident memory (VmHWM,
// from /proc, so Linux only). BENCHMARKS.md has the figures and the
// commands that made them:
//
//	memattack -mode fake -listen 127.0.0.1:18080     # a fake Dagu with 2,000-character log lines
//	gateway serve --dagu-url http://127.0.0.1:18080 --dagu-api-key <key> --listen 127.0.0.1:28390
//	memattack -mode body -url http://127.0.0.1:28390/mcp -c 32 -d 20s -pid <gateway pid>
//	memattack -mode slowlog -url http://127.0.0.1:28390/mcp -c 8 -hold 30s -pid <gateway pid>
package main

import (
	"flag"
	"fmt"
	"net/http"
	"os"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
)

func main() {
	mode := flag.String("mode", "body", "fake (serve the fake Dagu), body (large tools/call bodies) or slowlog (slow readers of a large log)")
	url := flag.String("url", "http://127.0.0.1:8090/mcp", "the gateway's MCP URL")
	listen := flag.String("listen", "127.0.0.1:18080", "address of the fake Dagu (mode fake)")
	key := flag.String("key", "dagu_attack_key_0123456789", "API key the fake Dagu accepts (mode fake)")
	callers := flag.Int("c", 32, "concurrent callers")
	duration := flag.Duration("d", 20*time.Second, "how long the body attack runs")
	hold := flag.Duration("hold", 30*time.Second, "how long a slow reader leaves its answer unread")
	pid := flag.Int("pid", 0, "process ID of the gateway, whose memory is reported")
	flag.Parse()
	switch *mode {
	case "fake":
		serveFake(*listen, *key)
	case "body":
		fmt.Println(measure(*pid, func() string { return sendBodies(*url, *callers, *duration) }))
	case "slowlog":
		fmt.Println(measure(*pid, func() string { return readSlowly(*url, *callers, *hold) }))
	default:
		fmt.Fprintln(os.Stderr, "memattack: unknown mode", *mode)
		os.Exit(2)
	}
}

// serveFake serves the fake Dagu whose big_log_job writes 20,000 lines of
// 2,000 characters.
func serveFake(listen, key string) {
	fake := fakedagu.New(fakedagu.Options{APIKey: key, Role: "admin", BigLogLineWidth: 2000})
	srv := &http.Server{Addr: listen, Handler: fake, ReadHeaderTimeout: 5 * time.Second}
	fmt.Println("fake Dagu on", listen)
	if err := srv.ListenAndServe(); err != nil {
		fmt.Fprintln(os.Stderr, "memattack:", err)
		os.Exit(1)
	}
}
