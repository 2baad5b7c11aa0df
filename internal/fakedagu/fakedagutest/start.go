// SPDX-License-Identifier: Apache-2.0

// Package fakedagutest starts fake Dagu servers for tests.
package fakedagutest

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
)

// Keys tests can hand to the fake and to the client under test.
const (
	// APIKey is a key with the rest_api surface.
	APIKey = "dagu_test_rest_api_key"
	// MCPOnlyKey is a key that lacks the rest_api surface.
	MCPOnlyKey = "dagu_test_mcp_only_key"
)

// Start serves a fake Dagu on a loopback httptest server that is closed
// when the test ends. It returns the server and its base URL: scheme, host
// and opts.BasePath, without the API base (Server.APIPrefix: "/api/v1", or
// "/api/v2" for the 1.29 and 1.17 profiles).
func Start(tb testing.TB, opts fakedagu.Options) (*fakedagu.Server, string) {
	tb.Helper()
	s := fakedagu.New(opts)
	ts := httptest.NewServer(s)
	tb.Cleanup(ts.Close)
	base := strings.TrimRight(ts.URL+"/"+strings.Trim(opts.BasePath, "/"), "/")
	return s, base
}
