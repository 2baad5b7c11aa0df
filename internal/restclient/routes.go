// SPDX-License-Identifier: Apache-2.0

package restclient

// Route templates of the Dagu REST routes the gateway may call, relative to
// the REST base (BaseURL + "/api/v1"). They are exactly the paths of
// api/openapi.yaml; routes_test.go keeps the two in step. Error.Route and the
// metrics use these strings.
const (
	RouteHealth            = "/health"
	RouteOpenAPI           = "/openapi.json"
	RouteCurrentUser       = "/auth/me"
	RouteDAGs              = "/dags"
	RouteDAG               = "/dags/{fileName}"
	RouteDAGSpec           = "/dags/{fileName}/spec"
	RouteSearchDAGs        = "/search/dags"
	RouteSearchDAGMatches  = "/search/dags/{fileName}/matches"
	RouteWiki              = "/wiki"
	RouteWikiPage          = "/wiki/page"
	RouteSearchWiki        = "/search/wiki"
	RouteRuns              = "/dag-runs"
	RouteRunsByName        = "/dag-runs/{name}"
	RouteRun               = "/dag-runs/{name}/{dagRunId}"
	RouteRunLog            = "/dag-runs/{name}/{dagRunId}/log"
	RouteRunSpec           = "/dag-runs/{name}/{dagRunId}/spec"
	RouteRunOutputs        = "/dag-runs/{name}/{dagRunId}/outputs"
	RouteStepLog           = "/dag-runs/{name}/{dagRunId}/steps/{stepName}/log"
	RouteStepLogDownload   = "/dag-runs/{name}/{dagRunId}/steps/{stepName}/log/download"
	RouteSubRuns           = "/dag-runs/{name}/{dagRunId}/sub-dag-runs"
	RouteSubRun            = "/dag-runs/{name}/{dagRunId}/sub-dag-runs/{subDAGRunId}"
	RouteSubRunLog         = "/dag-runs/{name}/{dagRunId}/sub-dag-runs/{subDAGRunId}/log"
	RouteSubRunSpec        = "/dag-runs/{name}/{dagRunId}/sub-dag-runs/{subDAGRunId}/spec"
	RouteSubStepLog        = "/dag-runs/{name}/{dagRunId}/sub-dag-runs/{subDAGRunId}/steps/{stepName}/log"
	RouteSubStepDownload   = "/dag-runs/{name}/{dagRunId}/sub-dag-runs/{subDAGRunId}/steps/{stepName}/log/download"
	RouteForeachItems      = "/dag-runs/{name}/{dagRunId}/steps/{stepName}/foreach"
	RouteSubForeachItems   = "/dag-runs/{name}/{dagRunId}/sub-dag-runs/{subDAGRunId}/steps/{stepName}/foreach"
	RouteForeachItem       = "/dag-runs/{name}/{dagRunId}/steps/{stepName}/foreach/{item}"
	RouteSubForeachItem    = "/dag-runs/{name}/{dagRunId}/sub-dag-runs/{subDAGRunId}/steps/{stepName}/foreach/{item}"
	RouteForeachBodyLog    = "/dag-runs/{name}/{dagRunId}/steps/{stepName}/foreach/{item}/steps/{bodyStepName}/log"
	RouteSubForeachBodyLog = "/dag-runs/{name}/{dagRunId}/sub-dag-runs/{subDAGRunId}/steps/{stepName}/foreach/{item}/steps/{bodyStepName}/log"
	RouteEventLogs         = "/event-logs"

	// Routes of older Dagu releases (see DetectCapabilities).
	RouteSearchDAGsLegacy = "/dags/search"
	RouteDocs             = "/docs"
	RouteDoc              = "/docs/doc"
	RouteSearchDocsLegacy = "/docs/search"
	RouteSearchDocs       = "/search/docs"
	// Dagu 1.17 serves sub-runs ("child DAG-runs") under /children, with
	// no list route and no spec or download variants.
	RouteChildRun     = "/dag-runs/{name}/{dagRunId}/children/{childDAGRunId}"
	RouteChildRunLog  = "/dag-runs/{name}/{dagRunId}/children/{childDAGRunId}/log"
	RouteChildStepLog = "/dag-runs/{name}/{dagRunId}/children/{childDAGRunId}/steps/{stepName}/log"
)

// Query keys shared by several routes.
var (
	logWindowKeys  = []string{"tail", "head", "offset", "limit"}
	stepLogKeys    = append([]string{"stream"}, logWindowKeys...)
	foreachKeys    = []string{"parent", "status", "page", "perPage"}
	runFilterKeys  = []string{"dagRunId", "status", "fromDate", "toDate", "limit", "cursor", "workspace"}
	runListKeys    = append([]string{"name", "labels"}, runFilterKeys...)
	streamOnlyKeys = []string{"stream"}
)

// allowedRoutes is the transport guard's allow-list: every GET route the
// gateway may send, with the query keys each accepts. Nothing else leaves
// the process.
var allowedRoutes = map[string][]string{
	RouteHealth:            nil,
	RouteOpenAPI:           nil,
	RouteCurrentUser:       nil,
	RouteDAGs:              {"page", "perPage", "name", "labels", "tags", "tag", "sort", "order", "workspace"},
	RouteDAG:               nil,
	RouteDAGSpec:           nil,
	RouteSearchDAGs:        {"q", "workspace", "cursor", "limit", "labels"},
	RouteSearchDAGMatches:  {"q", "cursor", "limit"},
	RouteWiki:              {"workspace", "prefix", "page", "perPage", "flat", "sort", "order"},
	RouteWikiPage:          {"workspace", "path"},
	RouteSearchWiki:        {"q", "workspace", "prefix", "cursor", "limit"},
	RouteRuns:              runListKeys,
	RouteRunsByName:        runFilterKeys,
	RouteRun:               nil,
	RouteRunLog:            logWindowKeys,
	RouteRunSpec:           nil,
	RouteRunOutputs:        nil,
	RouteStepLog:           stepLogKeys,
	RouteStepLogDownload:   streamOnlyKeys,
	RouteSubRuns:           {"parentSubDAGRunId"},
	RouteSubRun:            nil,
	RouteSubRunLog:         logWindowKeys,
	RouteSubRunSpec:        nil,
	RouteSubStepLog:        stepLogKeys,
	RouteSubStepDownload:   streamOnlyKeys,
	RouteForeachItems:      foreachKeys,
	RouteSubForeachItems:   foreachKeys,
	RouteForeachItem:       nil,
	RouteSubForeachItem:    nil,
	RouteForeachBodyLog:    stepLogKeys,
	RouteSubForeachBodyLog: stepLogKeys,
	RouteEventLogs:         {"kind", "dagName", "dagRunId", "limit"},
	RouteSearchDAGsLegacy:  {"q"},
	RouteDocs:              {"workspace", "page", "perPage", "flat", "sort", "order"},
	RouteDoc:               {"workspace", "path"},
	RouteSearchDocsLegacy:  {"q", "workspace"},
	RouteSearchDocs:        {"q", "workspace", "cursor", "limit"},
	RouteChildRun:          nil,
	RouteChildRunLog:       logWindowKeys,
	RouteChildStepLog:      stepLogKeys,
}
