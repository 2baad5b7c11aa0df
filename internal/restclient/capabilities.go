package restclient

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"strings"
	"time"
)

// Capabilities records which optional Dagu features the server has.
type Capabilities struct {
	// Version is the server version from /health ("" when unknown).
	Version string
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

// capabilityTable is the one place that says which published routes prove a
// capability: all listed routes must be present. A new optional Dagu route
// is one line here (plus its Capabilities field).
var capabilityTable = []struct {
	routes []string
	set    func(*Capabilities)
}{
	{[]string{RouteForeachItems, RouteSubForeachItems, RouteForeachItem, RouteSubForeachItem, RouteForeachBodyLog, RouteSubForeachBodyLog},
		func(c *Capabilities) { c.ForeachRoutes = true }},
	{[]string{RouteEventLogs}, func(c *Capabilities) { c.EventLogs = true }},
}

// DetectCapabilities reads /health and /openapi.json. A server without an
// OpenAPI document (router-level 404) yields no optional capabilities and
// no error; any other failure is returned.
func (c *Client) DetectCapabilities(ctx context.Context) (Capabilities, error) {
	caps := Capabilities{DetectedAt: time.Now(), Routes: map[string]bool{}}
	health, err := c.Health(ctx)
	if err != nil {
		return caps, err
	}
	caps.Version = health.Version
	routes, err := c.publishedRoutes(ctx)
	if IsRouteMissing(err) {
		return caps, nil
	}
	if err != nil {
		return caps, err
	}
	caps.Routes = routes
	applyCapabilities(&caps)
	return caps, nil
}

func applyCapabilities(caps *Capabilities) {
	published := map[string]bool{}
	for route := range caps.Routes {
		published[normalizeTemplate(route)] = true
	}
	for _, row := range capabilityTable {
		all := true
		for _, route := range row.routes {
			all = all && published[normalizeTemplate(route)]
		}
		if all {
			row.set(caps)
		}
	}
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
	res, err := c.api.GetOpenAPIDocument(ctx)
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
