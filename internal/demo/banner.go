// SPDX-License-Identifier: Apache-2.0

package demo

import (
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/dagu-mcp-gateway/gateway/internal/config"
)

// Banner is what `demo` prints on start: where the gateway and its demo
// Dagu listen, and ready command lines and client snippets for them.
type Banner struct {
	// Listen is the gateway's bound address.
	Listen string
	// DaguURL is the demo Dagu's base URL.
	DaguURL string
	// Key is the demo Dagu's API key when the demo made it up; empty when
	// the operator gave one, which is never printed.
	Key string
	// Tokens is whether inbound tokens are required.
	Tokens bool
	// Command runs this program again (see SelfCommand).
	Command string
}

// keySetting is the setting of the Dagu key, which the banner names when
// the operator gave one.
var keySetting, _ = config.Lookup("dagu-api-key")

// tokenPlaceholder stands for an inbound token in the snippets: the
// operator chose the tokens, and a banner never prints a secret.
const tokenPlaceholder = "<your token>"

// Print writes the banner in one write, so that a reader never sees half
// of it.
func (b Banner) Print(out io.Writer) {
	var w strings.Builder
	defer func() { _, _ = io.WriteString(out, w.String()) }()
	host, wildcard := config.ReachableHost(b.Listen)
	mcpURL := "http://" + host + "/mcp"
	fmt.Fprintf(&w, "dagu-mcp-gateway demo is running (press Ctrl-C to stop)\n\n")
	fmt.Fprintf(&w, "  MCP endpoint (Streamable HTTP): %s\n", mcpURL)
	fmt.Fprintf(&w, "  Demo Dagu (recorded data):      %s\n", b.DaguURL)
	fmt.Fprintf(&w, "  Demo Dagu API key:              %s\n", b.keyLabel())
	if wildcard {
		fmt.Fprintf(&w, "  (listening on every interface: from another machine, use this machine's name or address in place of 127.0.0.1)\n")
	}
	claudeHeader, jsonHeader, curlHeader := "", "", ""
	if b.Tokens {
		claudeHeader = ` --header "Authorization: Bearer ` + tokenPlaceholder + `"`
		jsonHeader = `, "headers": {"Authorization": "Bearer ` + tokenPlaceholder + `"}`
		curlHeader = ` -H "Authorization: Bearer ` + tokenPlaceholder + `"`
	}
	fmt.Fprintf(&w, "\nClaude Code:\n  claude mcp add --transport http dagu-demo %s%s\n", mcpURL, claudeHeader)
	fmt.Fprintf(&w, "\nAny MCP client that speaks Streamable HTTP:\n  {\"mcpServers\": {\"dagu-demo\": {\"type\": \"http\", \"url\": %q%s}}}\n", mcpURL, jsonHeader)
	fmt.Fprintf(&w, "\nA framework that hands its model only the text (LangChain, OpenAI Agents, the AI SDK), at this URL:\n  %s?text-content=json&resource-links=omit\n", mcpURL)
	keyValue := b.Key
	if keyValue == "" {
		keyValue = "'<the key you gave>'"
	}
	fmt.Fprintf(&w, "\nCheck the demo Dagu, or serve it over stdio, while the demo runs:\n")
	for _, sub := range []string{"doctor", "stdio"} {
		fmt.Fprintf(&w, "  DAGU_URL=%s DAGU_API_KEY=%s %s %s\n", b.DaguURL, keyValue, b.Command, sub)
	}
	fmt.Fprintf(&w, `
Try it with curl:
  curl -s %s%s -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' \
    -d '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"dagu_read","arguments":{"target":"runs","query":"status=2"}}}'

`, mcpURL, curlHeader)
}

// keyLabel is the banner's line about the demo Dagu's key.
func (b Banner) keyLabel() string {
	if b.Key != "" {
		return b.Key
	}
	return "the one you gave (" + keySetting.Env + " or --" + keySetting.Flag + "; not shown)"
}

// plainWord matches a command word the shell takes as it is.
var plainWord = regexp.MustCompile(`^[A-Za-z0-9_./-]+$`)

// SelfCommand is how a banner's command line runs this program again: as
// it was started (bin/dagu-mcp-gateway, a name on PATH), or, for a binary
// `go run` built in a temporary directory, `go run ./cmd/gateway`.
func SelfCommand(arg0 string) string {
	if strings.Contains(filepath.ToSlash(arg0), "/go-build") {
		return "go run ./cmd/gateway"
	}
	if plainWord.MatchString(arg0) {
		return arg0
	}
	return "'" + strings.ReplaceAll(arg0, "'", `'\''`) + "'"
}

// Help is the demo command's long help.
const Help = `Start a built-in demo Dagu on 127.0.0.1:8095 (it serves recorded answers of a
real Dagu: DAGs, failed and waiting runs, logs, foreach items, a wiki) and the
gateway in front of it, then print the MCP URL and a ready-to-paste client
configuration. No Dagu server, network or API key is needed. The demo Dagu's
port stays the same on every start (--dagu-port changes it); when it is in use,
the demo stops and says so.

--dagu-profile imitates an older Dagu release instead of the current one, to
show what the gateway serves there (run "dagu-mcp-gateway doctor" against the
printed Dagu URL for the full report).

The demo Dagu accepts the key given with --dagu-api-key (or DAGU_API_KEY); with
that key "dagu-mcp-gateway doctor" and "dagu-mcp-gateway stdio" can use the
printed Dagu URL. Without one it makes up a random key.`
