// SPDX-License-Identifier: Apache-2.0

package upstream

import (
	"github.com/dagu-mcp-gateway/gateway/internal/model"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient"
)

// Dialects: which route answers a read on the detected Dagu release, and
// what the gateway must do itself where an older release lacks a filter or
// paging the contract promises. Every choice reads the last capability
// detection; before the first one succeeds the current routes are tried.

// Bounds of the work the gateway does itself for an older release: how
// many list pages it reads and how many items it keeps.
const (
	emulatedPageSize = 200
	emulatedMaxPages = 10
	// emulatedMaxItems is the most items (runs, search results, pages)
	// the gateway reads to filter or page for an older Dagu.
	emulatedMaxItems = emulatedPageSize * emulatedMaxPages
	// defaultSearchLimit is Dagu's own default page size of a search feed.
	defaultSearchLimit = 20
	// defaultWikiPerPage is Dagu's own default page size of the wiki list.
	defaultWikiPerPage = 50
	// defaultDAGsPerPage is Dagu's own default page size of the DAG list.
	defaultDAGsPerPage = 50
)

// caps returns the last detection, or the current release's capabilities
// when none has succeeded yet (reads then try the current routes first).
func (a *Adapter) capsOrCurrent() restclient.Capabilities {
	if caps, ok := a.Capabilities(); ok {
		return caps
	}
	return restclient.Capabilities{
		APIBase: restclient.APIv1, OpenAPI: true, Wiki: true, SearchDAGs: true, SearchWiki: true,
		RunListFilters: true, SubRuns: true, LogDownloads: true, ForeachRoutes: true, EventLogs: true,
	}
}

// hasSubRunRoutes reports whether the release serves sub-runs: under
// /sub-dag-runs (1.29 and later) or /children (1.17; restclient's
// RunRoutes then reads sub-runs there).
func hasSubRunRoutes(caps restclient.Capabilities) bool { return caps.SubRuns || caps.ChildRuns }

// hasForeachSource reports whether the release has anything foreach
// items are read from: the /foreach routes, or the step-log downloads a
// finished foreach step's summary is read from (2.0 and later).
func hasForeachSource(caps restclient.Capabilities) bool {
	return caps.ForeachRoutes || caps.LogDownloads
}

// hasWorkspaces reports whether the release knows workspaces: 2.6 and
// later (the wiki, the docs feed and the run-list filters arrived with
// them). On older releases every DAG and page is in the default one.
func hasWorkspaces(caps restclient.Capabilities) bool {
	return caps.Wiki || caps.SearchDocs || caps.RunListFilters
}

// workspaceWithout checks a workspace on a release without workspaces:
// all and default select everything; any other name names nothing there.
func workspaceWithout(route, ws string) error {
	switch ws {
	case "", model.AllWorkspaces, defaultWorkspace:
		return nil
	}
	return notFound(route, model.FieldWorkspace, "")
}

// defaultWorkspace is the workspace every DAG and page belongs to on a
// release without workspaces.
const defaultWorkspace = "default"

// dagLabelParam is the DAG list's label filter parameter of the release:
// labels (2.6 and later), tags (2.0), tag (1.x, one label; see
// dags_legacy.go).
func dagLabelParam(caps restclient.Capabilities) string {
	switch {
	case caps.RunListFilters:
		return labelParamLabels
	case caps.APIBase == restclient.APIv2:
		return labelParamTag
	}
	return labelParamTags
}
