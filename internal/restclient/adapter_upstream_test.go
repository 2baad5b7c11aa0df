package restclient_test

import (
	"github.com/dagu-mcp-gateway/gateway/internal/readtool"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient"
)

// The adapter is the read tool's upstream. The assertion lives in an
// external test package because restclient must not import readtool.
var _ readtool.Upstream = (*restclient.Adapter)(nil)
