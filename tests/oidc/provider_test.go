// SPDX-License-Identifier: Apache-2.0

//go:build oidc

package oidc

import (
	"bufio"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/testkit"
)

// Names the provider and the policy share.
const (
	// scope is the scope of the gateway's resource, which the gateway
	// requires (--oidc-scope).
	scope = "dagu.read"
	// serviceAccount is the client-credentials client of provider.mjs.
	serviceAccount = "ci-reports"
	// serviceAudience is the audience provider.mjs gives the service
	// account's tokens when it names no resource (the go-sdk's
	// client-credentials handler sends none): the gateway accepts it with
	// --oidc-audience, as it would an Entra ID api:// audience.
	serviceAudience = "api://dagu-mcp-gateway"
)

// account is a person who signs in with the provider.
type account struct {
	Password string   `json:"password"`
	Email    string   `json:"email"`
	Groups   []string `json:"groups"`
}

// provider is the running OpenID provider (provider.mjs).
type provider struct {
	issuer   string
	accounts map[string]account
	secret   string // the service account's client secret
	cmd      *exec.Cmd
	logs     *testkit.LogBuffer
	done     chan struct{}
}

// startWait bounds the provider's start.
const startWait = 60 * time.Second

// startProvider starts provider.mjs with three people (alice in sre, bob
// in analysts, carol in a group no rule names) and the service account,
// each with a random secret, and waits for its issuer URL.
func startProvider() (*provider, error) {
	p := &provider{secret: rand.Text() + rand.Text(), logs: &testkit.LogBuffer{Limit: 1 << 20}, done: make(chan struct{}),
		accounts: map[string]account{
			"alice": {Password: rand.Text(), Email: "alice@example.test", Groups: []string{"sre"}},
			"bob":   {Password: rand.Text(), Email: "bob@example.test", Groups: []string{"analysts", "staff"}},
			"carol": {Password: rand.Text(), Email: "carol@example.test", Groups: []string{"contractors"}},
		}}
	accounts, _ := json.Marshal(p.accounts)
	p.cmd = exec.Command("node", "provider.mjs")
	p.cmd.Env = append(os.Environ(), "OIDC_PORT=0", "OIDC_ACCOUNTS="+string(accounts), "OIDC_CI_SECRET="+p.secret,
		"OIDC_CI_AUDIENCE="+serviceAudience, `OIDC_CI_GROUPS=["ci"]`)
	p.cmd.Stderr = p.logs
	out, err := p.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := p.cmd.Start(); err != nil {
		return nil, fmt.Errorf("node provider.mjs: %w (Node 20 or later is needed)", err)
	}
	first := make(chan string, 1)
	go func() {
		lines := bufio.NewScanner(out)
		if lines.Scan() {
			first <- lines.Text()
		}
		close(first)
		for lines.Scan() {
		}
		_ = p.cmd.Wait()
		close(p.done)
	}()
	return p, p.awaitIssuer(first)
}

// awaitIssuer reads the provider's first line, {"issuer": URL}.
func (p *provider) awaitIssuer(first <-chan string) error {
	select {
	case line, ok := <-first:
		var hello struct{ Issuer string }
		if ok && json.Unmarshal([]byte(line), &hello) == nil && hello.Issuer != "" {
			p.issuer = hello.Issuer
			return nil
		}
		p.stop()
		return fmt.Errorf("provider.mjs printed %q, not its issuer:\n%s", line, p.logs.Tail(4096))
	case <-time.After(startWait):
		p.stop()
		return errors.New("provider.mjs printed no issuer within a minute:\n" + p.logs.Tail(4096))
	}
}

// stop ends the provider (SIGTERM, then a kill after 10 s).
func (p *provider) stop() {
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(10 * time.Second):
		_ = p.cmd.Process.Kill()
		<-p.done
	}
}
