// SPDX-License-Identifier: Apache-2.0

package frontdoor

import (
	"context"
	"net/http"
	"time"
)

// instanceParam is the query parameter of /readyz naming one instance.
const instanceParam = "instance"

// readiness is what /readyz asks: the whole gateway (all), and with an
// instances file one instance (one) among those served (names). scope is
// the instances a request's token may use.
type readiness struct {
	all   func(ctx context.Context, detailed bool) (ok bool, body any)
	one   func(ctx context.Context, name string, detailed bool) (found, ok bool, body any)
	names Endpoints
	scope func(*http.Request) instanceScope
}

// readinessHandler answers /readyz with 200 or 503 and the body of the
// readiness asked for, detailed for trusted callers; /readyz?instance=NAME
// asks one instance, and a name not served is a 404 (naming the instances
// to trusted callers only). A token limited to some instances gets the
// detail of those alone: of one it may use, not of the whole gateway.
func readinessHandler(ready readiness, trusted func(*http.Request) bool, timeout time.Duration) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), timeout)
		defer cancel()
		detailed, scope := trusted(r), ready.scope(r)
		if names, asked := r.URL.Query()[instanceParam]; asked && ready.one != nil {
			name := firstOf(names)
			found, ok, body := ready.one(ctx, name, detailed && scope.allows(name))
			if !found {
				writeJSON(w, http.StatusNotFound, unknownInstance(ready.names, scope, detailed))
				return
			}
			writeReadiness(w, ok, body)
			return
		}
		detailed = detailed && scope == nil
		if ready.all == nil {
			writeJSON(w, http.StatusOK, map[string]string{"status": "ready"})
			return
		}
		ok, body := ready.all(ctx, detailed)
		writeReadiness(w, ok, body)
	})
}

// writeReadiness writes 200 or 503 with body, or with the bare status
// when body is nil.
func writeReadiness(w http.ResponseWriter, ok bool, body any) {
	status, word := http.StatusOK, "ready"
	if !ok {
		status, word = http.StatusServiceUnavailable, "not ready"
	}
	if body == nil {
		body = map[string]string{"status": word}
	}
	writeJSON(w, status, body)
}

// unknownInstance is the 404 body of /readyz?instance= with a name not
// served: the names of the instances it may use only for a trusted caller.
func unknownInstance(names Endpoints, scope instanceScope, detailed bool) map[string]any {
	body := map[string]any{"error": "no Dagu instance by that name"}
	if detailed && names != nil {
		allowed := []string{}
		for _, name := range names.Names() {
			if scope.allows(name) {
				allowed = append(allowed, name)
			}
		}
		body["instances"] = allowed
	}
	return body
}

func firstOf(values []string) string {
	if len(values) == 0 {
		return ""
	}
	return values[0]
}
