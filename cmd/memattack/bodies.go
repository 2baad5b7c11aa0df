// SPDX-License-Identifier: Apache-2.0

package main

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"
)

// tally counts outcomes by name, safely from many goroutines.
type tally struct {
	mu     sync.Mutex
	counts map[string]int
}

func (t *tally) add(outcome string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.counts == nil {
		t.counts = map[string]int{}
	}
	t.counts[outcome]++
}

func (t *tally) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return fmt.Sprint(t.counts)
}

// hostileBody is a 1 MiB tools/call whose arguments hold about 90,000
// unknown keys.
func hostileBody() []byte {
	var b bytes.Buffer
	b.WriteString(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"dagu_read","arguments":{"target":"dags"`)
	for i := 0; b.Len() < (1<<20)-64; i++ {
		fmt.Fprintf(&b, `,"k%06d":1`, i)
	}
	b.WriteString(`}}}`)
	return b.Bytes()
}

const victimRead = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"dagu_read","arguments":{"target":"dags","query":"perPage=5"}}}`

// sendBodies has callers send hostile bodies back to back (each with a
// made-up bearer) for d, while a victim makes one small read every 100 ms.
func sendBodies(url string, callers int, d time.Duration) string {
	body := hostileBody()
	client := &http.Client{Timeout: time.Minute, Transport: &http.Transport{MaxIdleConnsPerHost: callers + 1}}
	deadline := time.Now().Add(d)
	var attack, victim tally
	var wg sync.WaitGroup
	for range callers {
		wg.Go(func() {
			for time.Now().Before(deadline) {
				attack.add(post(client, url, body, "made-up-"+fmt.Sprint(time.Now().UnixNano())))
			}
		})
	}
	wg.Go(func() {
		for time.Now().Before(deadline) {
			victim.add(post(client, url, []byte(victimRead), ""))
			time.Sleep(100 * time.Millisecond)
		}
	})
	wg.Wait()
	return fmt.Sprintf("%d callers x %d-byte bodies for %s: %v; the victim's small reads: %v", callers, len(body), d, &attack, &victim)
}

// post sends one MCP request and names its outcome: the HTTP status, with
// "tool error" for a 200 that carries one.
func post(client *http.Client, url string, body []byte, bearer string) string {
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return "error"
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if bearer != "" {
		req.Header.Set("Authorization", "Bearer "+bearer)
	}
	resp, err := client.Do(req)
	if err != nil {
		return "error"
	}
	defer resp.Body.Close()
	answer, _ := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
	if resp.StatusCode == http.StatusOK && bytes.Contains(answer, []byte(`"isError":true`)) {
		return "200 tool error"
	}
	return fmt.Sprint(resp.StatusCode)
}
