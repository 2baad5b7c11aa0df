// SPDX-License-Identifier: Apache-2.0

package main

import (
	"fmt"
	"io"
	"net"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/dagu-mcp-gateway/gateway/internal/doctor"
)

// demoBanner is what `demo` prints on start: where the gateway and its
// demo Dagu listen, and ready command lines and client snippets for them.
type demoBanner struct {
	// listen is the gateway's bound address.
	listen  string
	daguURL string
	// key is the demo Dagu's API key when the demo made it up; empty when
	// the operator gave one, which is never printed.
	key string
	// tokens is whether inbound tokens are required.
	tokens bool
	// command runs this program again (see selfCommand).
	command string
}

// tokenPlaceholder stands for an inbound token in the snippets: the
// operator chose the tokens, and a banner never prints a secret.
const tokenPlaceholder = "<your token>"

// print writes the banner in one write, so that a reader never sees half
// of it.
func (b demoBanner) print(out io.Writer) {
	var w strings.Builder
	defer func() { _, _ = io.WriteString(out, w.String()) }()
	host, wildcard := reachableHost(b.listen)
	mcpURL := "http://" + host + "/mcp"
	fmt.Fprintf(&w, "dagu-mcp-gateway demo is running (press Ctrl-C to stop)\n\n")
	fmt.Fprintf(&w, "  MCP endpoint (Streamable HTTP): %s\n", mcpURL)
	fmt.Fprintf(&w, "  Demo Dagu (recorded data):      %s\n", b.daguURL)
	fmt.Fprintf(&w, "  Demo Dagu API key:              %s\n", b.keyLabel())
	if wildcard {
		fmt.Fprintf(&w, "  (listening on every interface: from another machine, use this machine's name or address in place of 127.0.0.1)\n")
	}
	claudeHeader, jsonHeader, curlHeader := "", "", ""
	if b.tokens {
		claudeHeader = ` --header "Authorization: Bearer ` + tokenPlaceholder + `"`
		jsonHeader = `, "headers": {"Authorization": "Bearer ` + tokenPlaceholder + `"}`
		curlHeader = ` -H "Authorization: Bearer ` + tokenPlaceholder + `"`
	}
	fmt.Fprintf(&w, "\nClaude Code:\n  claude mcp add --transport http dagu-demo %s%s\n", mcpURL, claudeHeader)
	fmt.Fprintf(&w, "\nAny MCP client that speaks Streamable HTTP:\n  {\"mcpServers\": {\"dagu-demo\": {\"type\": \"http\", \"url\": %q%s}}}\n", mcpURL, jsonHeader)
	fmt.Fprintf(&w, "\nA framework that hands its model only the text (LangChain, OpenAI Agents, the AI SDK), at this URL:\n  %s?text-content=json&resource-links=omit\n", mcpURL)
	keyValue := b.key
	if keyValue == "" {
		keyValue = "'<the key you gave>'"
	}
	fmt.Fprintf(&w, "\nCheck the demo Dagu, or serve it over stdio, while the demo runs:\n")
	for _, sub := range []string{"doctor", "stdio"} {
		fmt.Fprintf(&w, "  DAGU_URL=%s DAGU_API_KEY=%s %s %s\n", b.daguURL, keyValue, b.command, sub)
	}
	fmt.Fprintf(&w, `
Try it with curl:
  curl -s %s%s -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' \
    -d '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"dagu_read","arguments":{"target":"runs","query":"status=2"}}}'

`, mcpURL, curlHeader)
}

// keyLabel is the banner's line about the demo Dagu's key.
func (b demoBanner) keyLabel() string {
	if b.key != "" {
		return b.key
	}
	return "the one you gave (" + doctor.KeySetting.Env + " or --" + doctor.KeySetting.Flag + "; not shown)"
}

// reachableHost is host:port a client on this machine reaches the bound
// address at: a wildcard address (0.0.0.0, [::]) becomes 127.0.0.1, which
// every wildcard listener also serves; wildcard reports that change.
func reachableHost(listen string) (hostPort string, wildcard bool) {
	host, p, err := net.SplitHostPort(listen)
	if err != nil {
		return listen, false
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		return net.JoinHostPort("127.0.0.1", p), true
	}
	return net.JoinHostPort(host, p), false
}

// plainWord matches a command word the shell takes as it is.
var plainWord = regexp.MustCompile(`^[A-Za-z0-9_./-]+$`)

// selfCommand is how a banner's command line runs this program again: as
// it was started (bin/dagu-mcp-gateway, a name on PATH), or, for a binary
// `go run` built in a temporary directory, `go run ./cmd/gateway`.
func selfCommand(arg0 string) string {
	if strings.Contains(filepath.ToSlash(arg0), "/go-build") {
		return "go run ./cmd/gateway"
	}
	if plainWord.MatchString(arg0) {
		return arg0
	}
	return "'" + strings.ReplaceAll(arg0, "'", `'\''`) + "'"
}
