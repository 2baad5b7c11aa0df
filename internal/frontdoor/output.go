// SPDX-License-Identifier: Apache-2.0

package frontdoor

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/dagu-mcp-gateway/gateway/internal/config"
	"github.com/dagu-mcp-gateway/gateway/internal/reqctx"
)

// outputParam is a query parameter of an MCP URL that chooses the content
// of that client's reads: the same name and values as the server's flag.
type outputParam struct {
	name   string
	values []string
	set    func(*reqctx.Output, string)
}

// outputParams are the query parameters an MCP endpoint takes.
var outputParams = []outputParam{
	{name: "text-content", values: []string{config.TextContentContract, config.TextContentJSON},
		set: func(o *reqctx.Output, v string) { o.TextContent = v }},
	{name: "resource-links", values: []string{config.ResourceLinksContract, config.ResourceLinksOmit},
		set: func(o *reqctx.Output, v string) { o.ResourceLinks = v }},
}

// maxEchoedParam bounds how much of a client's parameter name or value a
// 400 quotes back.
const maxEchoedParam = 40

// chooseOutput reads the output choice of an MCP URL into the request's
// context (reqctx.Output), and refuses with 400 a parameter it does not
// know, a value it does not take, or a parameter given twice, naming the
// valid ones. A URL without a query keeps the server's settings.
func chooseOutput(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.RawQuery == "" {
			next.ServeHTTP(w, r)
			return
		}
		out, problem := parseOutput(r.URL.RawQuery)
		if problem != "" {
			writeJSONText(w, http.StatusBadRequest, map[string]string{"error": "invalid_request",
				"message": problem + " " + validOutputParams()})
			return
		}
		next.ServeHTTP(w, r.WithContext(reqctx.WithOutput(r.Context(), out)))
	})
}

// parseOutput reads the output parameters of a query; problem says what
// is wrong with it.
func parseOutput(rawQuery string) (out reqctx.Output, problem string) {
	query, err := url.ParseQuery(rawQuery)
	if err != nil {
		return out, "The URL's query is malformed."
	}
	names := make([]string, 0, len(query))
	for name := range query {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		p, ok := outputParamNamed(name)
		if !ok {
			return out, fmt.Sprintf("Unknown URL parameter %q.", echoed(name))
		}
		values := query[name]
		if len(values) != 1 {
			return out, fmt.Sprintf("URL parameter %s is given %d times.", name, len(values))
		}
		if !slices.Contains(p.values, values[0]) {
			return out, fmt.Sprintf("URL parameter %s=%q: use %s.", name, echoed(values[0]), strings.Join(p.values, " or "))
		}
		p.set(&out, values[0])
	}
	return out, ""
}

func outputParamNamed(name string) (outputParam, bool) {
	for _, p := range outputParams {
		if p.name == name {
			return p, true
		}
	}
	return outputParam{}, false
}

// validOutputParams is the sentence of a 400 that names every parameter
// and its values.
func validOutputParams() string {
	parts := make([]string, len(outputParams))
	for i, p := range outputParams {
		parts[i] = p.name + "=" + strings.Join(p.values, "|")
	}
	return "An MCP URL takes only " + strings.Join(parts, " and ") +
		" (e.g. /mcp?text-content=json&resource-links=omit), each at most once; without them the server's settings apply."
}

// echoed is a client's text short enough to quote back.
func echoed(s string) string {
	if len(s) <= maxEchoedParam {
		return s
	}
	cut := maxEchoedParam
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + "…"
}
