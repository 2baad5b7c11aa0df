// SPDX-License-Identifier: Apache-2.0

package doctor

import (
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient"
	"github.com/dagu-mcp-gateway/gateway/internal/upstream"
)

// permanentLimits are what no Dagu release's REST API can tell the gateway.
var permanentLimits = []string{
	"dags, dag_search: DAGs under paths.alt_dags_dir are not listed (Dagu's REST list omits them)",
}

// CapabilityReport is the JSON form of a detection: the REST base, each
// capability, and how every target is served. /readyz shows it to
// authenticated callers; doctor prints the same facts. targets are the read
// targets with their support rules (readtool.TargetRules).
func CapabilityReport(caps restclient.Capabilities, targets []model.TargetRule) map[string]any {
	flags := map[string]bool{}
	for _, name := range restclient.CapabilityNames() {
		flags[name] = caps.Has(name)
	}
	return map[string]any{
		"version":      caps.Version,
		"apiBase":      string(caps.APIBase),
		"openapi":      caps.OpenAPI,
		"capabilities": flags,
		"targets":      upstream.Support(caps, targets),
		"limits":       permanentLimits,
		"detectedAt":   caps.DetectedAt.UTC().Format(time.RFC3339),
	}
}
