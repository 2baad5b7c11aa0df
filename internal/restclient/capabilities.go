// SPDX-License-Identifier: Apache-2.0

package restclient

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/restclient/gen"
	"golang.org/x/sync/errgroup"
)

// Capabilities records where the server serves its REST API and which of
// the routes that differ between Dagu releases it has.
type Capabilities struct {
	// Version is the server version from /health ("" when unknown).
	Version string
	// APIBase is where the REST API lives: /api/v1 (2.x) or /api/v2 (1.x).
	APIBase APIBase
	// OpenAPI: the server publishes /openapi.json (2.6 and later); the
	// route capabilities then come from it, else from probes.
	OpenAPI bool
	// Wiki: /wiki, /wiki/page (current Dagu).
	Wiki bool
	// Docs: /docs, /docs/doc, the wiki of Dagu 2.0-2.6.
	Docs bool
	// SearchDAGs: the cursor-paged /search/dags feed (2.6 and later).
	SearchDAGs bool
	// SearchDAGsLegacy: the unpaged regular-expression /dags/search.
	SearchDAGsLegacy bool
	// SearchWiki: the /search/wiki feed.
	SearchWiki bool
	// SearchDocs: the /search/docs feed (2.6).
	SearchDocs bool
	// SearchDocsLegacy: the unpaged /docs/search (2.0-2.6).
	SearchDocsLegacy bool
	// RunListFilters: /dag-runs takes several status values, labels,
	// limit and cursor (2.6 and later); older servers refuse a repeated
	// status and ignore the rest.
	RunListFilters bool
	// SubRuns: the /sub-dag-runs routes exist (1.29 and later).
	SubRuns bool
	// ChildRuns: the /children routes of Dagu 1.17 exist, its sub-run
	// details and logs (no list route).
	ChildRuns bool
	// LogDownloads: the step-log /download routes exist (2.0 and later),
	// which the gateway reads a foreach summary from where the /foreach
	// routes are missing.
	LogDownloads bool
	// ForeachRoutes: the per-item foreach routes exist (newer Dagu).
	ForeachRoutes bool
	// EventLogs: the central event log route exists (it may still answer
	// 403 to keys below the manager role).
	EventLogs bool
	// DetectedAt is when detection ran.
	DetectedAt time.Time
	// Routes holds every GET route template the server's OpenAPI document
	// lists, with parameter names kept as published. Empty when the server
	// publishes no document.
	Routes map[string]bool
}

// capability is one row of the capability table: how the gateway learns
// whether the server has a feature.
type capability struct {
	// Name is the capability's name in doctor and /readyz.
	Name string
	// routes prove the capability when all are in the OpenAPI document.
	routes []string
	// probe decides without the document (or when routes cannot tell);
	// nil means only the document can prove the capability.
	probe func(ctx context.Context, c *Client) (bool, error)
	field func(*Capabilities) *bool
}

// probeQuery is a search text no real document is expected to contain;
// probes only care whether the route answers.
const probeQuery = "dagu-mcp-gateway-capability-probe"

// capabilityTable is the one place that says how each capability is
// detected. A new optional Dagu route is one row here (plus its
// Capabilities field).
var capabilityTable = []capability{
	{"wiki", []string{RouteWiki, RouteWikiPage}, probeRoute(func(ctx context.Context, c *Client) error {
		_, err := c.ListWiki(ctx, gen.ListWikiPagesParams{Flat: ptr(true), PerPage: ptr(1)})
		return err
	}), func(c *Capabilities) *bool { return &c.Wiki }},
	{"docs", []string{RouteDocs, RouteDoc}, probeRoute(func(ctx context.Context, c *Client) error {
		_, err := c.ListDocs(ctx, gen.ListDocsParams{Flat: ptr(true), PerPage: ptr(1)})
		return err
	}), func(c *Capabilities) *bool { return &c.Docs }},
	{"searchDAGs", []string{RouteSearchDAGs}, probeRoute(func(ctx context.Context, c *Client) error {
		_, err := c.SearchDAGs(ctx, gen.SearchDAGsParams{Q: probeQuery, Limit: ptr(1)})
		return err
	}), func(c *Capabilities) *bool { return &c.SearchDAGs }},
	{"searchDAGsLegacy", []string{RouteSearchDAGsLegacy}, probeRoute(func(ctx context.Context, c *Client) error {
		_, err := c.SearchDAGsLegacy(ctx, probeQuery)
		return err
	}), func(c *Capabilities) *bool { return &c.SearchDAGsLegacy }},
	{"searchWiki", []string{RouteSearchWiki}, probeRoute(func(ctx context.Context, c *Client) error {
		_, err := c.SearchWiki(ctx, gen.SearchWikiPagesParams{Q: probeQuery, Limit: ptr(1)})
		return err
	}), func(c *Capabilities) *bool { return &c.SearchWiki }},
	{"searchDocs", []string{RouteSearchDocs}, probeRoute(func(ctx context.Context, c *Client) error {
		_, err := c.SearchDocs(ctx, gen.SearchDocsParams{Q: probeQuery, Limit: ptr(1)})
		return err
	}), func(c *Capabilities) *bool { return &c.SearchDocs }},
	{"searchDocsLegacy", []string{RouteSearchDocsLegacy}, probeRoute(func(ctx context.Context, c *Client) error {
		_, err := c.SearchDocsLegacy(ctx, gen.SearchDocsLegacyParams{Q: probeQuery})
		return err
	}), func(c *Capabilities) *bool { return &c.SearchDocsLegacy }},
	{"runListFilters", nil, probeRunListFilters, func(c *Capabilities) *bool { return &c.RunListFilters }},
	{"subRuns", []string{RouteSubRuns, RouteSubRun}, probeHandler(func(ctx context.Context, c *Client) error {
		_, err := c.ListSubRuns(ctx, RunRef{Name: probeQuery, RunID: probeQuery})
		return err
	}), func(c *Capabilities) *bool { return &c.SubRuns }},
	{"childRuns", []string{RouteChildRun, RouteChildRunLog, RouteChildStepLog}, probeHandler(func(ctx context.Context, c *Client) error {
		_, err := c.childRunDetails(ctx, RunRef{Name: probeQuery, RunID: probeQuery, SubRunID: probeQuery})
		return err
	}), func(c *Capabilities) *bool { return &c.ChildRuns }},
	{"logDownloads", []string{RouteStepLogDownload, RouteSubStepDownload}, probeHandler(func(ctx context.Context, c *Client) error {
		_, err := c.DownloadStepLog(ctx, RunRef{Name: probeQuery, RunID: probeQuery}, probeQuery, gen.StreamStdout, 1)
		return err
	}), func(c *Capabilities) *bool { return &c.LogDownloads }},
	{"foreachRoutes", []string{RouteForeachItems, RouteSubForeachItems, RouteForeachItem, RouteSubForeachItem, RouteForeachBodyLog, RouteSubForeachBodyLog},
		nil, func(c *Capabilities) *bool { return &c.ForeachRoutes }},
	{"eventLogs", []string{RouteEventLogs}, nil, func(c *Capabilities) *bool { return &c.EventLogs }},
}

// CapabilityNames lists the table's capabilities in order, for doctor and
// /readyz.
func CapabilityNames() []string {
	names := make([]string, len(capabilityTable))
	for i, row := range capabilityTable {
		names[i] = row.Name
	}
	return names
}

// Has reports a capability by its table name.
func (caps Capabilities) Has(name string) bool {
	for _, row := range capabilityTable {
		if row.Name == name {
			return *row.field(&caps)
		}
	}
	return false
}

// probeRoute turns one cheap call into a presence probe: any answer from a
// handler proves the route (a 400 or the wiki-disabled 403 too); a 404 or
// a non-JSON 200 (the web UI of Dagu 2.x) disproves it. A refused key or a
// transport failure is an error: detection cannot tell then.
func probeRoute(call func(context.Context, *Client) error) func(context.Context, *Client) (bool, error) {
	return func(ctx context.Context, c *Client) (bool, error) {
		err := call(ctx, c)
		e, ok := AsError(err)
		switch {
		case err == nil:
			return true, nil
		case !ok:
			return false, err
		case isNotAnAPI(err):
			return false, nil
		case e.Status == http.StatusBadRequest:
			return true, nil
		case e.Status == http.StatusForbidden && !e.SurfaceDenied:
			return true, nil
		}
		return false, err
	}
}

// probeFutureDate (2100-01-01) makes the run-list probe's answer empty.
const probeFutureDate int64 = 4102444800

// probeHandler proves a route with a path parameter: the probe names a run
// that does not exist, so a handler answers JSON (a 404 with a code) while
// a release without the route answers the router's plain 404.
func probeHandler(call func(context.Context, *Client) error) func(context.Context, *Client) (bool, error) {
	return func(ctx context.Context, c *Client) (bool, error) {
		err := call(ctx, c)
		switch {
		case err == nil || (IsStatus(err, http.StatusNotFound) && !IsRouteMissing(err)):
			return true, nil
		case IsRouteMissing(err) || isNotAnAPI(err):
			return false, nil
		}
		return false, err
	}
}

// probeRunListFilters asks for runs with two statuses, a limit and a date
// in the future (an empty answer): Dagu 2.6 and later answer it, older
// servers refuse the repeated status with 400.
func probeRunListFilters(ctx context.Context, c *Client) (bool, error) {
	future := probeFutureDate
	_, err := c.ListRuns(ctx, gen.ListDAGRunsParams{Status: gen.StatusFilter{0, 1}, Limit: ptr(1), FromDate: &future})
	if IsStatus(err, http.StatusBadRequest) {
		return false, nil
	}
	return err == nil, err
}

// DetectCapabilities finds the REST base, then reads /health and
// /openapi.json; where the server publishes no document (before 2.6), the
// table's probes decide. Any failure other than a missing document is
// returned.
func (c *Client) DetectCapabilities(ctx context.Context) (Capabilities, error) {
	caps := Capabilities{DetectedAt: time.Now(), Routes: map[string]bool{}}
	base, health, err := c.detectAPIBase(ctx)
	if err != nil {
		return caps, err
	}
	caps.APIBase = base
	if health == nil {
		// The API refused the probe (a Dagu 1.17 token); ask again for the
		// error the caller should see.
		if _, err := c.Health(ctx); err != nil {
			return caps, err
		}
	} else {
		caps.Version = health.Version
	}
	routes, err := c.publishedRoutes(ctx)
	switch {
	case err == nil:
		caps.OpenAPI, caps.Routes = true, routes
	case !IsStatus(err, http.StatusNotFound):
		return caps, err
	}
	err = c.applyCapabilities(ctx, &caps)
	if err == nil {
		c.SetChildRoutes(childRouteSet(caps))
	}
	return caps, err
}

// applyCapabilities fills every row: from the document when it lists the
// row's routes, else by the row's probe, run concurrently.
func (c *Client) applyCapabilities(ctx context.Context, caps *Capabilities) error {
	published := map[string]bool{}
	for route := range caps.Routes {
		published[normalizeTemplate(route)] = true
	}
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(4)
	for _, row := range capabilityTable {
		field := row.field(caps)
		switch {
		case caps.OpenAPI && len(row.routes) > 0:
			*field = allPublished(published, row.routes)
		case row.probe != nil:
			g.Go(func() error {
				ok, err := row.probe(ctx, c)
				*field = ok
				return err
			})
		}
	}
	return g.Wait()
}

func allPublished(published map[string]bool, routes []string) bool {
	for _, route := range routes {
		if !published[normalizeTemplate(route)] {
			return false
		}
	}
	return true
}

var templateParam = regexp.MustCompile(`\{[^/}]*\}`)

// normalizeTemplate blanks parameter names, so "/x/{id}" and "/x/{name}"
// compare equal: only the route's shape matters.
func normalizeTemplate(route string) string {
	return templateParam.ReplaceAllString(route, "{}")
}

// publishedRoutes fetches /openapi.json and stream-decodes only the keys
// of its "paths" object and their method names; the document is large
// (hundreds of KiB) and everything else is skipped without being stored.
func (c *Client) publishedRoutes(ctx context.Context) (map[string]bool, error) {
	res, err := c.api().GetOpenAPIDocument(ctx)
	if err != nil {
		return nil, decodeError(RouteOpenAPI, err)
	}
	defer res.Body.Close()
	routes, err := decodeGetRoutes(res.Body)
	if err != nil {
		return nil, decodeError(RouteOpenAPI, err)
	}
	return routes, nil
}

// decodeGetRoutes returns the paths of an OpenAPI document that have a GET
// operation.
func decodeGetRoutes(r io.Reader) (map[string]bool, error) {
	dec := json.NewDecoder(r)
	if err := expectDelim(dec, '{'); err != nil {
		return nil, err
	}
	routes := map[string]bool{}
	for dec.More() {
		key, err := objectKey(dec)
		if err != nil {
			return nil, err
		}
		if key != "paths" {
			if err := skipValue(dec); err != nil {
				return nil, err
			}
			continue
		}
		if err := decodePaths(dec, routes); err != nil {
			return nil, err
		}
	}
	return routes, expectDelim(dec, '}')
}

func decodePaths(dec *json.Decoder, routes map[string]bool) error {
	if err := expectDelim(dec, '{'); err != nil {
		return err
	}
	for dec.More() {
		path, err := objectKey(dec)
		if err != nil {
			return err
		}
		methods, err := objectKeys(dec)
		if err != nil {
			return err
		}
		if methods["get"] {
			routes[path] = true
		}
	}
	return expectDelim(dec, '}')
}

// objectKeys reads an object and returns its keys in lower case, skipping
// the values.
func objectKeys(dec *json.Decoder) (map[string]bool, error) {
	if err := expectDelim(dec, '{'); err != nil {
		return nil, err
	}
	keys := map[string]bool{}
	for dec.More() {
		key, err := objectKey(dec)
		if err != nil {
			return nil, err
		}
		keys[strings.ToLower(key)] = true
		if err := skipValue(dec); err != nil {
			return nil, err
		}
	}
	return keys, expectDelim(dec, '}')
}

func objectKey(dec *json.Decoder) (string, error) {
	tok, err := dec.Token()
	if err != nil {
		return "", err
	}
	key, ok := tok.(string)
	if !ok {
		return "", fmt.Errorf("expected an object key, got %v", tok)
	}
	return key, nil
}

func expectDelim(dec *json.Decoder, want json.Delim) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if d, ok := tok.(json.Delim); !ok || d != want {
		return fmt.Errorf("expected %q, got %v", want, tok)
	}
	return nil
}

// skipValue consumes one JSON value of any depth. Decoding into a
// RawMessage runs the decoder's fast scanner instead of producing a token
// per element; the bytes are dropped right after.
func skipValue(dec *json.Decoder) error {
	var discard json.RawMessage
	return dec.Decode(&discard)
}
