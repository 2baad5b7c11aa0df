// SPDX-License-Identifier: Apache-2.0

//go:build hostile && linux

package hostile

import (
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// TestFreshLoginsBuyNothing is attack 5 of issue 28: one Dagu user
// logging in 12 times (Dagu accepts login JWTs as bearers) with
// --rate-limit 1 --rate-burst 1 must read no more than with one login
// (before: 10 reads in 10 s with one credential, 120 with 12).
func TestFreshLoginsBuyNothing(t *testing.T) {
	d := daguUnder
	g := startGateway(t, d, "", append(append([]string{}, passthrough...), "--rate-limit", "1", "--rate-burst", "1"))
	const phase = 5 * time.Second
	one := hammer(g.Base, []string{d.login(t)}, phase)
	logins := make([]string, 12)
	for i := range logins {
		logins[i] = d.login(t)
	}
	twelve := hammer(g.Base, logins, phase)
	t.Logf("RESULT 5 fresh logins: %d reads in %s with 1 login, %d with 12 (peak RSS %d MiB)", one, phase, twelve, g.PeakRSS(t)>>20)
	if one == 0 {
		t.Fatal("no read succeeded with one login")
	}
	if slack := int64(2); twelve > one+slack {
		t.Errorf("12 logins of one user read %d times, one login %d: fresh logins buy reads", twelve, one)
	}
}

// hammer reads with the credentials in turn from 4 callers for d and
// returns how many reads succeeded.
func hammer(base string, credentials []string, d time.Duration) int64 {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	var ok, next atomic.Int64
	workers(ctx, 4, func(ctx context.Context, _ int) {
		key := credentials[int(next.Add(1))%len(credentials)]
		if read(ctx, base, key, victimRead, nil).ok {
			ok.Add(1)
		}
	})
	return ok.Load()
}

// TestTokenFileRotationNeverBlocks is attack 6 of issue 28: the inbound
// token file (alice) is replaced by a FIFO, later by a regular file
// holding only carol. Every request meanwhile is answered within 5 s (a
// reload blocked forever in open(2)), and within 5 s of the good file
// carol reads and alice is refused (before: carol 401, alice 200,
// indefinitely).
func TestTokenFileRotationNeverBlocks(t *testing.T) {
	const (
		alice = "alice-token-0123456789abcdef"
		carol = "carol-token-0123456789abcdef"
	)
	d := daguUnder
	dir := t.TempDir()
	path := filepath.Join(dir, "tokens")
	replace := func(mk func(tmp string) error) {
		tmp := filepath.Join(dir, "tokens.new")
		if err := mk(tmp); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(tmp, path); err != nil {
			t.Fatal(err)
		}
	}
	write := func(content string) func(string) error {
		return func(p string) error { return os.WriteFile(p, []byte(content), 0o600) }
	}
	replace(write("alice:" + alice + "\n"))
	g := startGateway(t, d, "", []string{"--auth-token-file", path, "--dagu-api-key", d.key})
	if o := read(context.Background(), g.Base, alice, victimRead, nil); !o.ok {
		t.Fatalf("alice does not read with the first file: %+v", o)
	}
	replace(func(p string) error { return syscall.Mkfifo(p, 0o600) })
	answered, sent := 0, 0
	for end := time.Now().Add(3 * time.Second); time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		o := read(ctx, g.Base, alice, victimRead, nil)
		cancel()
		sent++
		if o.err == nil {
			answered++
		}
	}
	replace(write("carol:" + carol + "\n"))
	rotated := false
	for end := time.Now().Add(5 * time.Second); time.Now().Before(end) && !rotated; time.Sleep(100 * time.Millisecond) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		rotated = read(ctx, g.Base, carol, victimRead, nil).ok && read(ctx, g.Base, alice, victimRead, nil).status == http.StatusUnauthorized
		cancel()
	}
	t.Logf("RESULT 6 token file FIFO then carol: %d of %d requests answered while a FIFO; carol in and alice out within 5 s: %v", answered, sent, rotated)
	if answered < sent {
		t.Errorf("%d of %d requests were not answered within 5 s while the token file was a FIFO", sent-answered, sent)
	}
	if !rotated {
		t.Error("5 s after the good file, carol is not in or alice not out")
	}
}

// TestMetadataNeverReflectsHost is attack 7 of issue 28: on 0.0.0.0
// without --allowed-host, Host: evil.example must not come back in the
// protected-resource metadata nor in the 401 challenge; with
// --public-url (set by environment), that URL is the resource.
func TestMetadataNeverReflectsHost(t *testing.T) {
	d := daguUnder
	const token = "metadata-token-0123456789abcdef"
	g := startGateway(t, d, "0.0.0.0", []string{"--auth-token", token, "--dagu-api-key", d.key})
	metadata, challenge := evilHostAnswers(t, g.Base)
	t.Logf("RESULT 7 Host: evil.example on 0.0.0.0: metadata %q, challenge %q", metadata, challenge)
	if strings.Contains(metadata, "evil.example") || strings.Contains(challenge, "evil.example") {
		t.Errorf("an unchecked Host is written back: metadata %s, challenge %q", metadata, challenge)
	}
	public := startGateway(t, d, "0.0.0.0", []string{"--auth-token", token, "--dagu-api-key", d.key}, "GATEWAY_PUBLIC_URL=https://gw.example.com")
	metadata, challenge = evilHostAnswers(t, public.Base)
	if !strings.Contains(metadata, `"resource":"https://gw.example.com/mcp"`) || !strings.Contains(challenge, `resource_metadata="https://gw.example.com/.well-known/oauth-protected-resource"`) {
		t.Errorf("with --public-url: metadata %s, challenge %q", metadata, challenge)
	}
}

// evilHostAnswers asks the metadata and /mcp without a token, with
// Host: evil.example.
func evilHostAnswers(t *testing.T, base string) (metadata, challenge string) {
	t.Helper()
	do := func(method, path string) *http.Response {
		req, _ := http.NewRequest(method, base+path, strings.NewReader("{}"))
		req.Host = "evil.example"
		res, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	res := do(http.MethodGet, "/.well-known/oauth-protected-resource")
	body, _ := io.ReadAll(io.LimitReader(res.Body, 1<<16))
	res.Body.Close()
	res = do(http.MethodPost, "/mcp")
	res.Body.Close()
	return string(body), res.Header.Get("WWW-Authenticate")
}
