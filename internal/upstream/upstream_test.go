package upstream_test

import (
	"github.com/dagu-mcp-gateway/gateway/internal/readtool"
	"github.com/dagu-mcp-gateway/gateway/internal/upstream"
)

// The adapter is the read tool's upstream. The assertion lives in an
// external test package so that upstream's own code never imports readtool.
var _ readtool.Upstream = (*upstream.Adapter)(nil)
