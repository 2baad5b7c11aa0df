package fakedagu

// Route templates are relative to /api/v1. Every one of them is a GET route
// of the OpenAPI document the recorded server published (001), except the
// foreach routes, which only newer servers have (mapping §8).

// routeTable returns the routes of this server.
func (s *Server) routeTable() []route {
	routes := []route{
		newRoute("/health", (*Server).handleHealth),
		newRoute("/openapi.json", (*Server).handleOpenAPI),
		newRoute("/auth/me", (*Server).handleAuthMe),
		newRoute("/event-logs", (*Server).handleEventLogs),
		newRoute("/dags", (*Server).handleDAGs),
		newRoute("/dags/{fileName}", (*Server).handleDAG),
		newRoute("/dags/{fileName}/spec", (*Server).handleDAGSpec),
		newRoute("/search/dags", (*Server).handleSearchDAGs),
		newRoute("/search/dags/{fileName}/matches", (*Server).handleSearchDAGMatches),
		newRoute("/wiki", (*Server).handleWiki),
		newRoute("/wiki/page", (*Server).handleWikiPage),
		newRoute("/search/wiki", (*Server).handleSearchWiki),
		newRoute("/search/wiki/matches", (*Server).handleSearchWikiMatches),
		newRoute("/dag-runs", (*Server).handleRuns),
		newRoute("/dag-runs/{name}", (*Server).handleRunsOfDAG),
		newRoute("/dag-runs/{name}/{dagRunId}", (*Server).handleRun),
		newRoute("/dag-runs/{name}/{dagRunId}/spec", (*Server).handleRunSpec),
		newRoute("/dag-runs/{name}/{dagRunId}/log", (*Server).handleRunLog),
		newRoute("/dag-runs/{name}/{dagRunId}/log/download", (*Server).handleRunLogDownload),
		newRoute("/dag-runs/{name}/{dagRunId}/steps/{stepName}/log", (*Server).handleStepLog),
		newRoute("/dag-runs/{name}/{dagRunId}/steps/{stepName}/log/download", (*Server).handleStepLogDownload),
		newRoute("/dag-runs/{name}/{dagRunId}/sub-dag-runs", (*Server).handleSubRuns),
		newRoute("/dag-runs/{name}/{dagRunId}/sub-dag-runs/{subDAGRunId}", (*Server).handleSubRun),
		newRoute("/dag-runs/{name}/{dagRunId}/sub-dag-runs/{subDAGRunId}/spec", (*Server).handleSubRunSpec),
		newRoute("/dag-runs/{name}/{dagRunId}/sub-dag-runs/{subDAGRunId}/log", (*Server).handleSubRunLog),
		newRoute("/dag-runs/{name}/{dagRunId}/sub-dag-runs/{subDAGRunId}/log/download", (*Server).handleSubRunLogDownload),
		newRoute("/dag-runs/{name}/{dagRunId}/sub-dag-runs/{subDAGRunId}/steps/{stepName}/log", (*Server).handleSubStepLog),
		newRoute("/dag-runs/{name}/{dagRunId}/sub-dag-runs/{subDAGRunId}/steps/{stepName}/log/download", (*Server).handleSubStepLogDownload),
	}
	if s.opts.Foreach == ForeachRoutes {
		routes = append(routes, foreachRoutes()...)
	}
	return routes
}

// foreachRoutes are the per-item routes of newer servers.
func foreachRoutes() []route {
	const root = "/dag-runs/{name}/{dagRunId}"
	const sub = root + "/sub-dag-runs/{subDAGRunId}"
	const step = "/steps/{stepName}/foreach"
	return []route{
		newRoute(root+step, (*Server).handleForeachItems),
		newRoute(sub+step, (*Server).handleSubForeachItems),
		newRoute(root+step+"/{item}", (*Server).handleForeachItem),
		newRoute(sub+step+"/{item}", (*Server).handleSubForeachItem),
		newRoute(root+step+"/{item}/steps/{bodyStepName}/log", (*Server).handleForeachBodyLog),
		newRoute(sub+step+"/{item}/steps/{bodyStepName}/log", (*Server).handleSubForeachBodyLog),
	}
}
