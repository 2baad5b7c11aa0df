// SPDX-License-Identifier: Apache-2.0

package frontdoor

import (
	"context"
	"net/http"
	"slices"
	"strings"

	"github.com/dagu-mcp-gateway/gateway/internal/config"
	"github.com/dagu-mcp-gateway/gateway/internal/reqctx"
)

// Paths of the named instances' endpoints: /dagu/<name>/mcp.
const (
	instancePrefix = "/dagu/"
	// defaultInstance is the instance /mcp serves when there are
	// instances (instances.DefaultName).
	defaultInstance = "default"
)

// Endpoints are the named Dagu servers a gateway with an instances file
// serves (cmd/gateway's pool of wired instances). The front door asks for
// an instance's endpoint once per request and gives it back when the
// request is done, so a reload never cuts a request short.
type Endpoints interface {
	// Endpoint returns the named instance's endpoint and the function
	// that gives it back (called once, when the request is done); ok is
	// false for a name not served.
	Endpoint(name string) (ep Endpoint, release func(), ok bool)
	// Names lists the instances served, in order.
	Names() []string
}

// Endpoint is one instance's MCP endpoint.
type Endpoint struct {
	// MCP serves the instance's MCP requests (frontdoor.MCPHandler of its
	// own MCP server).
	MCP http.Handler
	// Verify makes the trust decision of a passthrough caller against this
	// instance's Dagu only; required in passthrough.
	Verify Verifier
}

// endpointKey is the context key of the Endpoint a request was routed to.
type endpointKey struct{}

// instanceOfPath reads the instance a path addresses: "default" for /mcp,
// name for /dagu/<name>/mcp exactly as written (lower case, no empty,
// dot or encoded segment, no trailing slash); ok is false for any other
// path under /dagu/.
func instanceOfPath(r *http.Request) (name string, ok bool) {
	if r.URL.Path == mcpPath {
		return defaultInstance, true
	}
	return instanceAt(r.URL.Path, r.URL.RawPath)
}

// instanceAt reads the name of /dagu/<name>/mcp written plainly (rawPath,
// the URL's RawPath, is empty: nothing in it was percent-encoded).
func instanceAt(path, rawPath string) (name string, ok bool) {
	rest, found := strings.CutPrefix(path, instancePrefix)
	if !found || rawPath != "" {
		return "", false
	}
	name, found = strings.CutSuffix(rest, mcpPath)
	return name, found && config.ValidInstanceName(name)
}

// isInstancePath reports whether a path is under /dagu (the instances'
// routes, answered by the front door itself rather than the mux, which
// would redirect /dagu//mcp or /dagu/../mcp to a cleaned path).
func isInstancePath(path string) bool {
	return path == strings.TrimSuffix(instancePrefix, "/") || strings.HasPrefix(path, instancePrefix)
}

// resourcePathOf is the MCP path a request addressed, which its 401's
// challenge and its metadata name: /mcp, or an instance's endpoint.
func resourcePathOf(r *http.Request) string {
	if name, ok := instanceOfPath(r); ok && r.URL.Path != mcpPath {
		return instancePrefix + name + mcpPath
	}
	return mcpPath
}

// routeInstance finds the endpoint of the instance a request addresses and
// hands it to next in the request's context, giving it back when next
// returns. A path under /dagu/ that is not an endpoint, and a name not
// served, are 404s naming the endpoints the caller may use and nothing
// else; an instance the caller's token is not for is a 403.
func routeInstance(endpoints Endpoints, auth *tokenAuth, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		scope := auth.verdictOf(r).instances
		name, ok := instanceOfPath(r)
		if !ok {
			refuseJSONRPC(w, http.StatusNotFound, "No MCP endpoint at this path. "+endpointList(endpoints, scope))
			return
		}
		ep, release, found := endpoints.Endpoint(name)
		if !found {
			message := "This gateway serves no Dagu instance by that name. " + endpointList(endpoints, scope)
			if r.URL.Path == mcpPath {
				message = "This gateway serves several Dagu servers and none is named default, so /mcp serves none. " + endpointList(endpoints, scope)
			}
			refuseJSONRPC(w, http.StatusNotFound, message)
			return
		}
		defer release()
		markInstance(r, name)
		if !scope.allows(name) {
			refuseJSONRPC(w, http.StatusForbidden, "The bearer token the request carried is not for the Dagu instance "+name+
				". "+endpointList(endpoints, scope)+" Ask the gateway's operator for a token for "+name+".")
			return
		}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), endpointKey{}, ep)))
	})
}

// instanceRoutes answers the paths under /dagu/ (and their metadata)
// itself, before the mux, which would redirect a path such as /dagu//mcp
// or /dagu/../mcp to a cleaned one: mcp takes every such path (its 404
// says which are endpoints), metadata the path-suffixed metadata of an
// endpoint when there is any metadata (withMetadata). Other paths go to
// mux.
func instanceRoutes(mux, mcp, metadata http.Handler, withMetadata bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		path := r.URL.Path
		switch {
		case isInstancePath(path):
			if r.Method != http.MethodPost && r.Method != http.MethodGet && r.Method != http.MethodDelete {
				w.Header().Set("Allow", "GET, POST, DELETE")
				writeError(w, http.StatusMethodNotAllowed, "method not allowed")
				return
			}
			mcp.ServeHTTP(w, r)
		case withMetadata && r.Method == http.MethodGet && isInstancePath(strings.TrimPrefix(path, protectedResourcePath)):
			metadata.ServeHTTP(w, r)
		default:
			mux.ServeHTTP(w, r)
		}
	})
}

// serveInstanceMetadata answers the RFC 9728 metadata of an instance's
// endpoint (/.well-known/oauth-protected-resource/dagu/<name>/mcp), the
// document of /mcp's with that endpoint as the resource; 404 for any other
// path or an instance not served.
func serveInstanceMetadata(endpoints Endpoints, auth *tokenAuth) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name, ok := instanceAt(strings.TrimPrefix(r.URL.Path, protectedResourcePath), r.URL.RawPath)
		if ok && slices.Contains(endpoints.Names(), name) {
			auth.serveMetadataOf(w, r, instancePrefix+name+mcpPath)
			return
		}
		writeError(w, http.StatusNotFound, "not found")
	})
}

// limitToDefault refuses, on a gateway of one Dagu, a token limited to
// instances other than default: the one Dagu is the default instance, and
// a token meant for some instances of another gateway reaches no other.
func limitToDefault(auth *tokenAuth, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !auth.verdictOf(r).instances.allows(defaultInstance) {
			refuseJSONRPC(w, http.StatusForbidden, "The bearer token the request carried is limited to named Dagu instances, and this gateway serves one Dagu (the instance default). Ask the gateway's operator for a token for it.")
			return
		}
		next.ServeHTTP(w, r)
	})
}

// limitToEveryInstance refuses /metrics to a token limited to some of the
// instances served (endpoints; nil: the one Dagu, the instance default):
// the metrics carry every instance's series, and such a token may read
// its own instances only.
func limitToEveryInstance(endpoints Endpoints, auth *tokenAuth, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		names := []string{defaultInstance}
		if endpoints != nil {
			names = endpoints.Names()
		}
		scope := auth.verdictOf(r).instances
		for _, name := range names {
			if !scope.allows(name) {
				writeJSONText(w, http.StatusForbidden, map[string]string{"error": "forbidden",
					"message": "The bearer token the request carried is limited to some Dagu instances, and /metrics carries the series of every instance. Ask the gateway's operator for a token of every instance, or scrape --metrics-listen."})
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// serveEndpoint is the MCP handler of the endpoint routeInstance chose.
func serveEndpoint(w http.ResponseWriter, r *http.Request) {
	r.Context().Value(endpointKey{}).(Endpoint).MCP.ServeHTTP(w, r)
}

// verifyAtEndpoint is the Verifier of the endpoint routeInstance chose: a
// passthrough key is only ever sent to the instance it was presented to.
func verifyAtEndpoint(ctx context.Context, credential, clientAddr string) (trust reqctx.Trust, caller string) {
	return ctx.Value(endpointKey{}).(Endpoint).Verify(ctx, credential, clientAddr)
}

// endpointList names the endpoints the caller may use.
func endpointList(endpoints Endpoints, scope instanceScope) string {
	var paths []string
	for _, name := range endpoints.Names() {
		if scope.allows(name) {
			paths = append(paths, instancePrefix+name+mcpPath)
		}
	}
	if slices.Contains(paths, instancePrefix+defaultInstance+mcpPath) {
		paths = append([]string{mcpPath}, paths...)
	}
	if len(paths) == 0 {
		return "This caller may use none of its endpoints."
	}
	return "Its endpoints: " + strings.Join(paths, ", ") + "."
}

// refuseJSONRPC answers an MCP request the front door refuses with a
// JSON-RPC error body (as the batch refusal), which MCP clients show.
func refuseJSONRPC(w http.ResponseWriter, status int, message string) {
	writeJSONText(w, status, jsonRPCRefusal{JSONRPC: "2.0", Error: jsonRPCError{Code: -32600, Message: message}})
}

// jsonRPCRefusal is a JSON-RPC error answer without a request ID, its
// fields in the order of the specification's examples.
type jsonRPCRefusal struct {
	JSONRPC string       `json:"jsonrpc"`
	ID      *int         `json:"id"`
	Error   jsonRPCError `json:"error"`
}

// jsonRPCError is the error member of a JSON-RPC answer.
type jsonRPCError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}
