// SPDX-License-Identifier: Apache-2.0

package fakedagu

import "net/http"

// A dialect is one row of the per-release table: where the REST API lives,
// which routes exist and the few behaviours that differ between releases.
// Everything else (body shapes, field names, IDs, messages inside recorded
// bodies) comes from the release's recordings.
type dialect struct {
	profile Profile
	release string // the recorded release, e.g. "2.6.5"
	dataDir string // embedded folder holding the recordings
	derived string // embedded folder of authored data ("" for none)

	apiBase    string // where the REST API is mounted below BasePath
	legacyBase string // a second, older API base that only answers /health ("" for none)
	webUI      bool   // paths outside the API answer the web UI (200 text/html)

	auth         authKind
	publicHealth bool // {apiBase}/health answers without credentials
	routes       routeSet
	subRunPath   string // "sub-dag-runs", or "children" on 1.17
	subRunNoun   string // what a missing sub-run's 404 calls it: "sub dag-run", or "child dag-run" on 1.17
	// childLookup: 1.17 looks a sub-run up in one step, so a missing root
	// answers the sub-run's 404, and a missing step of a sub-run names the
	// root's DAG.
	childLookup bool
	// logReadFails: a scheduler or step log file the handler cannot read,
	// a missing one included, is its read error, 500 internal_error (1.x);
	// later releases answer a missing file with 404.
	logReadFails bool

	dagLabels         labelParam // label filter of GET /dags
	dagListWorkspace  bool       // GET /dags binds workspace
	dagListSort       bool       // GET /dags binds sort and order
	listNextRun       bool       // DAG list entries carry nextRun (else it follows the schedule)
	emptyDAGsNull     bool       // an empty DAG list is {"dags": null} (1.17's handler appends to a nil slice)
	validatesDAGNames bool       // /dags/{fileName} answers 400 on bad names
	dagNotFound       string     // message format of a missing DAG (%[1]s: file name)
	specNotFound      int        // status of GET /dags/{fileName}/spec for a missing DAG

	latestAlias      bool       // /dag-runs/{name}/latest resolves the newest run
	runStatusArray   bool       // status repeats (array); else one value only
	runLabels        labelParam // label filter of the run lists
	runPaging        bool       // limit and cursor are honoured
	runWorkspace     bool       // run lists bind workspace
	runCursorVersion int        // "v" of the run list cursor
	emptyRunsNull    bool       // an empty run list is {"dagRuns": null}

	subRunDAGName      bool // sub-run list entries carry dagName
	subRunSchedulerLog bool // sub-runs have a scheduler log file
	docsWorkspaces     bool // /docs routes bind workspace (docs pages show filePath when their data has a fileRoot)
	derivesFromShapes  bool // unrecorded DAG details copy the shape of recorded ones
}

// authKind is how a release authenticates REST calls.
type authKind int

const (
	// authKeySurfaces: API keys with roles and surfaces; a key without the
	// rest_api surface gets a plain-text 403 (current).
	authKeySurfaces authKind = iota
	// authKeys: API keys with roles, no surfaces (1.29 to 2.6).
	authKeys
	// authStaticToken: one static bearer token, or basic credentials; no
	// users, no keys (1.17).
	authStaticToken
)

// labelParam names the query parameter a list filters labels with.
type labelParam int

const (
	labelsOrTags labelParam = iota // labels, with tags as a deprecated alias
	tagsOnly                       // tags (comma list)
	tagOnly                        // tag
	noLabels                       // no label filter; label parameters are ignored
)

// routeSet selects optional route groups.
type routeSet uint32

const (
	routeOpenAPI      routeSet = 1 << iota // /openapi.json
	routeAuthMe                            // /auth/me
	routeEventLogs                         // /event-logs
	routeSearchDAGs                        // /search/dags feed and matches
	routeLegacySearch                      // /dags/search
	routeWiki                              // /wiki, /wiki/page, /search/wiki(/matches)
	routeDocs                              // /docs, /docs/doc, /docs/search
	routeDocsFeed                          // /search/docs(/matches)
	routeRunSpecs                          // run and sub-run /spec
	routeDownloads                         // log /download variants
	routeSubRunList                        // /dag-runs/{name}/{dagRunId}/sub-dag-runs
	routeForeach                           // foreach routes (with ForeachRoutes)
)

func (rs routeSet) has(r routeSet) bool { return rs&r != 0 }

// Messages of a missing DAG on GET /dags/{fileName}.
const (
	dagNotFoundCurrent = "failed to load DAG %[1]s: failed to locate DAG %[1]s: DAG is not found"
	dagNotFound26      = "failed to load DAG %[1]s: failed to locate DAG %[1]s: DAG %[1]s not found: file does not exist"
	dagNotFoundOld     = "DAG %[1]s not found"
)

// dialects is the per-release table.
var dialects = map[Profile]*dialect{
	ProfileCurrent: {
		profile: ProfileCurrent, release: "current", dataDir: "testdata/fixtures", derived: "testdata/derived",
		apiBase: "/api/v1", auth: authKeySurfaces, publicHealth: true,
		routes: routeOpenAPI | routeAuthMe | routeEventLogs | routeSearchDAGs | routeWiki |
			routeRunSpecs | routeDownloads | routeSubRunList | routeForeach,
		subRunPath: "sub-dag-runs", subRunNoun: "sub dag-run", dagLabels: labelsOrTags, dagListWorkspace: true, dagListSort: true,
		listNextRun: true, validatesDAGNames: true, dagNotFound: dagNotFoundCurrent, specNotFound: http.StatusNotFound,
		latestAlias: true, runStatusArray: true, runLabels: labelsOrTags, runPaging: true, runWorkspace: true,
		runCursorVersion: 3, subRunDAGName: true,
	},
	Profile26: {
		profile: Profile26, release: "2.6.5", dataDir: "testdata/profiles/v2.6.5", derived: "testdata/profiles/v2.6.5/derived",
		apiBase: "/api/v1", webUI: true, auth: authKeys, publicHealth: true,
		routes: routeOpenAPI | routeAuthMe | routeEventLogs | routeSearchDAGs | routeLegacySearch |
			routeDocs | routeDocsFeed | routeRunSpecs | routeDownloads | routeSubRunList,
		subRunPath: "sub-dag-runs", subRunNoun: "sub dag-run", dagLabels: labelsOrTags, dagListWorkspace: true, dagListSort: true,
		listNextRun: true, validatesDAGNames: true, dagNotFound: dagNotFound26, specNotFound: http.StatusNotFound,
		latestAlias: true, runStatusArray: true, runLabels: labelsOrTags, runPaging: true, runWorkspace: true,
		runCursorVersion: 2, subRunDAGName: true, subRunSchedulerLog: true,
		docsWorkspaces: true, derivesFromShapes: true,
	},
	Profile20: {
		profile: Profile20, release: "2.0.0", dataDir: "testdata/profiles/v2.0.0", derived: "testdata/profiles/v2.0.0/derived",
		apiBase: "/api/v1", webUI: true, auth: authKeys, publicHealth: true,
		routes:     routeAuthMe | routeLegacySearch | routeDocs | routeRunSpecs | routeDownloads | routeSubRunList,
		subRunPath: "sub-dag-runs", subRunNoun: "sub dag-run", dagLabels: tagsOnly, dagListSort: true,
		dagNotFound: dagNotFoundOld, specNotFound: http.StatusNotFound,
		latestAlias: true, runLabels: tagsOnly, subRunSchedulerLog: true, derivesFromShapes: true,
	},
	Profile129: {
		profile: Profile129, release: "1.29.2", dataDir: "testdata/profiles/v1.29.2",
		apiBase: "/api/v2", auth: authKeys, publicHealth: true,
		routes:     routeAuthMe | routeLegacySearch | routeSubRunList,
		subRunPath: "sub-dag-runs", subRunNoun: "sub dag-run", dagLabels: tagOnly, dagListSort: true,
		dagNotFound: dagNotFoundOld, specNotFound: http.StatusInternalServerError,
		latestAlias: true, runLabels: noLabels, subRunSchedulerLog: true, derivesFromShapes: true,
		logReadFails: true,
	},
	Profile117: {
		profile: Profile117, release: "1.17.4", dataDir: "testdata/profiles/v1.17.4",
		apiBase: "/api/v2", legacyBase: "/api/v1", auth: authStaticToken,
		routes:     routeLegacySearch,
		subRunPath: "children", subRunNoun: "child dag-run", childLookup: true, dagLabels: tagOnly, emptyDAGsNull: true,
		dagNotFound: dagNotFoundOld, specNotFound: http.StatusInternalServerError,
		runLabels: noLabels, emptyRunsNull: true, subRunSchedulerLog: true, derivesFromShapes: true,
		logReadFails: true,
	},
}

// dialectOf returns the row of a profile; unknown profiles (rejected by
// ParseProfile) fall back to the current one.
func dialectOf(p Profile) *dialect {
	if d, ok := dialects[p]; ok {
		return d
	}
	return dialects[ProfileCurrent]
}
