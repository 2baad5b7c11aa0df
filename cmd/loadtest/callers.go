// SPDX-License-Identifier: Apache-2.0

package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// toolName is the gateway's one tool.
const toolName = "dagu_read"

// caller makes reads for one client.
type caller interface {
	call(ctx context.Context, target string) error
	close()
}

// mcpCaller is one MCP client session of the gateway (or of a baseline
// endpoint in compare mode).
type mcpCaller struct {
	session *mcp.ClientSession
	args    map[string]map[string]any // per single read
}

// dialMCP connects one MCP client (the initialize handshake) over
// Streamable HTTP.
func dialMCP(ctx context.Context, cfg config, hc *http.Client) (caller, error) {
	client := mcp.NewClient(&mcp.Implementation{Name: "dagu-mcp-gateway-loadtest", Version: "dev"}, nil)
	transport := &mcp.StreamableClientTransport{Endpoint: cfg.url, HTTPClient: hc, DisableStandaloneSSE: true, MaxRetries: -1}
	session, err := client.Connect(ctx, transport, nil)
	if err != nil {
		return nil, fmt.Errorf("connecting to %s: %w", cfg.url, err)
	}
	args := make(map[string]map[string]any, len(cfg.mix))
	for _, name := range cfg.mix {
		for _, read := range readsOf(name) {
			args[read] = argsOn(cfg, read, cfg.onBaseline)
		}
	}
	return &mcpCaller{session: session, args: args}, nil
}

// call makes a target's dagu_read calls in turn (one, or a flow's); the
// first failure ends it.
func (m *mcpCaller) call(ctx context.Context, target string) error {
	reads := readsOf(target)
	for _, read := range reads {
		err := m.read(ctx, read)
		switch {
		case err != nil && len(reads) > 1:
			return fmt.Errorf("%s: %w", read, err)
		case err != nil:
			return err
		}
	}
	return nil
}

// read makes one dagu_read call; a tool error counts as an error, unless
// the target expects one, where a success does.
func (m *mcpCaller) read(ctx context.Context, target string) error {
	res, err := m.session.CallTool(ctx, &mcp.CallToolParams{Name: toolName, Arguments: m.args[target]})
	if err != nil {
		return err
	}
	switch wantErr := targets[target].wantToolError; {
	case res.IsError && !wantErr:
		return fmt.Errorf("tool error: %s", firstText(res))
	case !res.IsError && wantErr:
		return errors.New("answered a success where a tool error was expected")
	}
	return nil
}

func (m *mcpCaller) close() { _ = m.session.Close() }

// firstText is the start of a result's first text content.
func firstText(res *mcp.CallToolResult) string {
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			return truncate(t.Text, 200)
		}
	}
	return "(no text)"
}

// restCaller reads the same data from Dagu's REST API directly.
type restCaller struct {
	hc    *http.Client
	key   string
	paths map[string][]string
}

// newRESTCaller prepares the REST paths of every target in the mix.
func newRESTCaller(cfg config, hc *http.Client, now time.Time) caller {
	base := strings.TrimRight(cfg.direct, "/")
	paths := make(map[string][]string, len(cfg.mix))
	for _, name := range cfg.mix {
		for _, p := range targets[name].rest(cfg, now) {
			paths[name] = append(paths[name], base+p)
		}
	}
	return &restCaller{hc: hc, key: cfg.daguKey, paths: paths}
}

// call makes the target's REST calls in turn; any answer but 200 is an
// error.
func (r *restCaller) call(ctx context.Context, target string) error {
	for _, u := range r.paths[target] {
		if err := r.get(ctx, u); err != nil {
			return err
		}
	}
	return nil
}

func (r *restCaller) get(ctx context.Context, u string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return err
	}
	if r.key != "" {
		req.Header.Set("Authorization", "Bearer "+r.key)
	}
	resp, err := r.hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if _, err := io.Copy(io.Discard, resp.Body); err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: HTTP %d", u, resp.StatusCode)
	}
	return nil
}

func (r *restCaller) close() {}

// bearer adds an Authorization header to every request.
type bearer struct {
	token string
	next  http.RoundTripper
}

func (b bearer) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	req.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(req)
}

// newHTTPClient builds the client every caller shares: keep-alive
// connections for every client, no proxy, and the gateway token when set.
func newHTTPClient(cfg config) *http.Client {
	var rt http.RoundTripper = &http.Transport{
		MaxIdleConns:        2 * cfg.clients,
		MaxIdleConnsPerHost: 2 * cfg.clients,
		IdleConnTimeout:     90 * time.Second,
		ForceAttemptHTTP2:   false,
	}
	if cfg.token != "" && cfg.direct == "" {
		// In compare mode each endpoint's runs get a config with its own
		// token, so one client never carries another endpoint's token.
		rt = bearer{token: cfg.token, next: rt}
	}
	return &http.Client{Transport: rt, Timeout: cfg.timeout}
}

// truncate cuts s to n bytes.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}
