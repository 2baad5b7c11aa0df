// SPDX-License-Identifier: Apache-2.0

package fakedagu

// Route templates are relative to the API base (/api/v1, or /api/v2 on
// 1.29 and 1.17). Each profile serves the GET routes of its release's
// OpenAPI document that the gateway reads; route groups a release lacks
// answer the router's 404. The foreach routes exist only on newer servers
// (mapping §8) and are served in ForeachRoutes mode.

// routeTable returns the routes of this server's release.
func (s *Server) routeTable() []route {
	d := s.dialect
	routes := []route{
		newRoute("/health", (*Server).handleHealth),
		newRoute("/dags", (*Server).handleDAGs),
		newRoute("/dags/{fileName}", (*Server).handleDAG),
		newRoute("/dags/{fileName}/spec", (*Server).handleDAGSpec),
		newRoute("/dag-runs", (*Server).handleRuns),
		newRoute("/dag-runs/{name}", (*Server).handleRunsOfDAG),
		newRoute("/dag-runs/{name}/{dagRunId}", (*Server).handleRun),
		newRoute("/dag-runs/{name}/{dagRunId}/log", (*Server).handleRunLog),
		newRoute("/dag-runs/{name}/{dagRunId}/steps/{stepName}/log", (*Server).handleStepLog),
	}
	routes = append(routes, subRunRoutes(d)...)
	for _, g := range optionalRoutes() {
		if d.routes.has(g.set) && (g.set != routeForeach || s.opts.Foreach == ForeachRoutes) {
			routes = append(routes, g.routes...)
		}
	}
	return routes
}

// routeGroup is an optional group of routes.
type routeGroup struct {
	set    routeSet
	routes []route
}

func optionalRoutes() []routeGroup {
	const run = "/dag-runs/{name}/{dagRunId}"
	const sub = run + "/sub-dag-runs/{subDAGRunId}"
	return []routeGroup{
		{routeOpenAPI, []route{newRoute("/openapi.json", (*Server).handleOpenAPI)}},
		{routeAuthMe, []route{newRoute("/auth/me", (*Server).handleAuthMe)}},
		{routeEventLogs, []route{newRoute("/event-logs", (*Server).handleEventLogs)}},
		{routeSearchDAGs, []route{
			newRoute("/search/dags", (*Server).handleSearchDAGs),
			newRoute("/search/dags/{fileName}/matches", (*Server).handleSearchDAGMatches),
		}},
		{routeLegacySearch, []route{newRoute("/dags/search", (*Server).handleLegacyDAGSearch)}},
		{routeWiki, []route{
			newRoute("/wiki", (*Server).handleWiki),
			newRoute("/wiki/page", (*Server).handleWikiPage),
			newRoute("/search/wiki", (*Server).handleSearchWiki),
			newRoute("/search/wiki/matches", (*Server).handleSearchWikiMatches),
		}},
		{routeDocs, []route{
			newRoute("/docs", (*Server).handleDocs),
			newRoute("/docs/doc", (*Server).handleDoc),
			newRoute("/docs/search", (*Server).handleDocsSearch),
		}},
		{routeDocsFeed, []route{
			newRoute("/search/docs", (*Server).handleSearchDocs),
			newRoute("/search/docs/matches", (*Server).handleSearchDocsMatches),
		}},
		{routeRunSpecs, []route{
			newRoute(run+"/spec", (*Server).handleRunSpec),
			newRoute(sub+"/spec", (*Server).handleSubRunSpec),
		}},
		{routeDownloads, []route{
			newRoute(run+"/log/download", (*Server).handleRunLogDownload),
			newRoute(run+"/steps/{stepName}/log/download", (*Server).handleStepLogDownload),
			newRoute(sub+"/log/download", (*Server).handleSubRunLogDownload),
			newRoute(sub+"/steps/{stepName}/log/download", (*Server).handleSubStepLogDownload),
		}},
		{routeSubRunList, []route{newRoute(run+"/sub-dag-runs", (*Server).handleSubRuns)}},
		{routeForeach, foreachRoutes()},
	}
}

// subRunRoutes are the routes of one sub-run, under /sub-dag-runs, or
// /children on 1.17.
func subRunRoutes(d *dialect) []route {
	sub := "/dag-runs/{name}/{dagRunId}/" + d.subRunPath + "/{subDAGRunId}"
	return []route{
		newRoute(sub, (*Server).handleSubRun),
		newRoute(sub+"/log", (*Server).handleSubRunLog),
		newRoute(sub+"/steps/{stepName}/log", (*Server).handleSubStepLog),
	}
}

// legacyRoutes are the routes of 1.17's legacy API base that the fake
// serves: only /health, which answers without credentials.
func legacyRoutes() []route {
	return []route{newRoute("/health", (*Server).handleHealth)}
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
