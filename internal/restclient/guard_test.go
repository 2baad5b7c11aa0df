// SPDX-License-Identifier: Apache-2.0

package restclient

import (
	"context"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/restclient/gen"
)

func TestGuardCheck(t *testing.T) {
	t.Parallel()
	base, err := restBaseURL("https://dagu.example:8443/dagu", APIv1)
	if err != nil {
		t.Fatal(err)
	}
	v2, err := restBaseURL("https://dagu.example:8443/dagu", APIv2)
	if err != nil {
		t.Fatal(err)
	}
	g := newGuard(base, v2)
	tests := []struct {
		name, method, url string
		wantRoute         string // "" means refused
	}{
		{"plain list", "GET", "https://dagu.example:8443/dagu/api/v1/dags?page=1&perPage=3", RouteDAGs},
		{"escaped slash stays one segment", "GET", "https://dagu.example:8443/dagu/api/v1/dags/a%2Fb/spec", RouteDAGSpec},
		{"host is case-insensitive", "GET", "https://DAGU.example:8443/dagu/api/v1/health", RouteHealth},
		{"repeated status", "GET", "https://dagu.example:8443/dagu/api/v1/dag-runs?status=2&status=3", RouteRuns},
		{"Dagu 1.x base", "GET", "https://dagu.example:8443/dagu/api/v2/dags/a/spec", RouteDAGSpec},
		{"Dagu 1.x base, write route", "GET", "https://dagu.example:8443/dagu/api/v2/dags/x/start", ""},
		{"unknown API version", "GET", "https://dagu.example:8443/dagu/api/v3/dags", ""},
		{"base prefix without a slash", "GET", "https://dagu.example:8443/dagu/api/v2dags", ""},
		{"deep foreach body log", "GET", "https://dagu.example:8443/dagu/api/v1/dag-runs/n/r/sub-dag-runs/s/steps/st/foreach/1.each.0/steps/b/log?stream=stdout", RouteSubForeachBodyLog},
		{"POST", "POST", "https://dagu.example:8443/dagu/api/v1/dags", ""},
		{"DELETE", "DELETE", "https://dagu.example:8443/dagu/api/v1/dags/x", ""},
		{"other host", "GET", "https://evil.example:8443/dagu/api/v1/dags", ""},
		{"other port", "GET", "https://dagu.example:9443/dagu/api/v1/dags", ""},
		{"other scheme", "GET", "http://dagu.example:8443/dagu/api/v1/dags", ""},
		{"userinfo", "GET", "https://u:p@dagu.example:8443/dagu/api/v1/dags", ""},
		{"outside the base path", "GET", "https://dagu.example:8443/api/v1/dags", ""},
		{"base path prefix trick", "GET", "https://dagu.example:8443/dagu/api/v1x/dags", ""},
		{"unknown route", "GET", "https://dagu.example:8443/dagu/api/v1/api-keys", ""},
		{"write route shape", "GET", "https://dagu.example:8443/dagu/api/v1/dags/x/start", ""},
		{"trailing slash", "GET", "https://dagu.example:8443/dagu/api/v1/dags/", ""},
		{"empty segment", "GET", "https://dagu.example:8443/dagu/api/v1/dags//spec", ""},
		{"dot segment param", "GET", "https://dagu.example:8443/dagu/api/v1/dag-runs/x/%2e%2e", ""},
		{"encoded traversal in one segment", "GET", "https://dagu.example:8443/dagu/api/v1/dags/..%2F..%2Fx", ""},
		{"encoded literal", "GET", "https://dagu.example:8443/dagu/api/v1/d%61gs", ""},
		{"remoteNode query", "GET", "https://dagu.example:8443/dagu/api/v1/dags?remoteNode=other", ""},
		{"key of another route", "GET", "https://dagu.example:8443/dagu/api/v1/dag-runs/n/r/log?stream=stdout", ""},
		{"malformed query", "GET", "https://dagu.example:8443/dagu/api/v1/dags?page=%zz", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, err := http.NewRequest(tt.method, tt.url, nil)
			if err != nil {
				t.Fatal(err)
			}
			route, err := g.check(req)
			if tt.wantRoute == "" {
				if kindOf(err) != "refused" {
					t.Fatalf("allowed %s %s as %q", tt.method, tt.url, route)
				}
				return
			}
			if err != nil || route != tt.wantRoute {
				t.Fatalf("check = %q, %v; want %q", route, err, tt.wantRoute)
			}
		})
	}
}

func TestGuardRefusesBody(t *testing.T) {
	t.Parallel()
	base, _ := restBaseURL("http://dagu", APIv1)
	req, _ := http.NewRequest("GET", "http://dagu/api/v1/dags", strings.NewReader("x"))
	if _, err := newGuard(base).check(req); kindOf(err) != "refused" {
		t.Fatalf("GET with a body allowed: %v", err)
	}
}

func FuzzGuardMatch(f *testing.F) {
	for _, s := range []string{
		"/dags", "/dags/x/spec", "/dag-runs/a/b/steps/c/log", "/dags/..", "/dags/%2e%2e", "/dags/a%2Fb",
		"/dag-runs/n/r/sub-dag-runs/s/steps/st/foreach/1.each.0/steps/b/log", "//", "/dags/%", "",
	} {
		f.Add(s)
	}
	m := newMatcher(allowedRoutes)
	f.Fuzz(func(t *testing.T, path string) {
		p, ok := m.match(path)
		if !ok {
			return
		}
		segs := strings.Split(strings.TrimPrefix(path, "/"), "/")
		if len(segs) != len(p.literals) {
			t.Fatalf("%q matched %s with %d segments", path, p.template, len(segs))
		}
		for i, lit := range p.literals {
			if lit != "" && segs[i] != lit {
				t.Fatalf("%q matched %s but segment %d is %q", path, p.template, i, segs[i])
			}
			if lit == "" {
				v, err := url.PathUnescape(segs[i])
				if err != nil || !validParam(v) {
					t.Fatalf("%q matched %s with bad parameter %q", path, p.template, segs[i])
				}
			}
		}
	})
}

// hostileValues are tried as every path parameter of every helper.
var hostileValues = []string{
	"../../api-keys", "a/b", "%2e%2e", "..", ".", "x?y", "x#y", "ü/名前",
	strings.Repeat("long", 75), "", "a/../b", "./x", "%2F", "{x}", "a;b=c", "line\nbreak", " ",
}

// pathOp calls one helper with path parameters in route-template order.
type pathOp struct {
	route string
	arity int
	call  func(c *Client, v []string) error
}

func pathOps() []pathOp {
	ctx := context.Background()
	w := LogWindow{Tail: 5}
	ref := func(v []string) RunRef { return RunRef{Name: v[0], RunID: v[1]} }
	sub := func(v []string) RunRef { return RunRef{Name: v[0], RunID: v[1], SubRunID: v[2]} }
	return []pathOp{
		{RouteDAG, 1, func(c *Client, v []string) error { _, err := c.GetDAG(ctx, v[0]); return err }},
		{RouteDAGSpec, 1, func(c *Client, v []string) error { _, err := c.GetDAGSpec(ctx, v[0]); return err }},
		{RouteSearchDAGMatches, 1, func(c *Client, v []string) error {
			_, err := c.SearchDAGMatches(ctx, v[0], gen.SearchDAGMatchesParams{Q: "echo"})
			return err
		}},
		{RouteRunsByName, 1, func(c *Client, v []string) error {
			_, err := c.ListRunsByName(ctx, v[0], gen.ListDAGRunsByNameParams{})
			return err
		}},
		{RouteRun, 2, func(c *Client, v []string) error { _, err := c.GetRun(ctx, ref(v)); return err }},
		{RouteRunSpec, 2, func(c *Client, v []string) error { _, err := c.GetRunSpec(ctx, ref(v)); return err }},
		{RouteRunOutputs, 2, func(c *Client, v []string) error { _, err := c.GetRunOutputs(ctx, v[0], v[1]); return err }},
		{RouteRunLog, 2, func(c *Client, v []string) error { _, err := c.GetRunLog(ctx, ref(v), w); return err }},
		{RouteSubRuns, 2, func(c *Client, v []string) error { _, err := c.ListSubRuns(ctx, ref(v)); return err }},
		{RouteStepLog, 3, func(c *Client, v []string) error {
			_, err := c.GetStepLog(ctx, StepRef{Run: ref(v), Step: v[2]}, gen.StreamStdout, w)
			return err
		}},
		{RouteStepLogDownload, 3, func(c *Client, v []string) error {
			_, err := c.DownloadStepLog(ctx, ref(v), v[2], gen.StreamStderr, 0)
			return err
		}},
		{RouteForeachItems, 3, func(c *Client, v []string) error {
			_, err := c.ListForeachItems(ctx, ref(v), v[2], ForeachQuery{Status: gen.ForeachFailed})
			return err
		}},
		{RouteForeachItem, 4, func(c *Client, v []string) error { _, err := c.GetForeachItem(ctx, ref(v), v[2], v[3]); return err }},
		{RouteForeachBodyLog, 5, func(c *Client, v []string) error {
			_, err := c.GetStepLog(ctx, StepRef{Run: ref(v), Step: v[2], Item: v[3], BodyStep: v[4]}, gen.StreamStdout, w)
			return err
		}},
		{RouteSubRun, 3, func(c *Client, v []string) error { _, err := c.GetRun(ctx, sub(v)); return err }},
		{RouteSubRunSpec, 3, func(c *Client, v []string) error { _, err := c.GetRunSpec(ctx, sub(v)); return err }},
		{RouteSubRunLog, 3, func(c *Client, v []string) error { _, err := c.GetRunLog(ctx, sub(v), w); return err }},
		{RouteSubStepLog, 4, func(c *Client, v []string) error {
			_, err := c.GetStepLog(ctx, StepRef{Run: sub(v), Step: v[3]}, gen.StreamStderr, w)
			return err
		}},
		{RouteSubStepDownload, 4, func(c *Client, v []string) error {
			_, err := c.DownloadStepLog(ctx, sub(v), v[3], gen.StreamStdout, 10)
			return err
		}},
		{RouteSubForeachItems, 4, func(c *Client, v []string) error {
			_, err := c.ListForeachItems(ctx, sub(v), v[3], ForeachQuery{Page: 2})
			return err
		}},
		{RouteSubForeachItem, 5, func(c *Client, v []string) error { _, err := c.GetForeachItem(ctx, sub(v), v[3], v[4]); return err }},
		{RouteChildRun, 3, func(c *Client, v []string) error { _, err := c.childRunDetails(ctx, sub(v)); return err }},
		{RouteChildRunLog, 3, func(c *Client, v []string) error { _, err := c.childRunLog(ctx, sub(v), w); return err }},
		{RouteChildStepLog, 4, func(c *Client, v []string) error {
			_, err := c.childStepLog(ctx, sub(v), v[3], gen.StreamStdout, w)
			return err
		}},
		{RouteSubForeachBodyLog, 6, func(c *Client, v []string) error {
			_, err := c.GetStepLog(ctx, StepRef{Run: sub(v), Step: v[3], Item: v[4], BodyStep: v[5]}, gen.StreamStdout, w)
			return err
		}},
	}
}

// TestHostilePathParams puts each hostile value into each path parameter of
// each helper. Either the call is refused and nothing is sent, or exactly
// one request arrives, on the intended route, carrying the value unchanged
// in the intended segment.
func TestHostilePathParams(t *testing.T) {
	t.Parallel()
	srv, rec := newServer(t, func(w http.ResponseWriter, _ *http.Request) { writeJSON(w, 200, `{}`) })
	c := newTestClient(t, srv.URL, func(cfg *Config) { cfg.Retries = -1 })
	ops := pathOps()
	if len(ops) != countParamRoutes() {
		t.Fatalf("pathOps covers %d routes, the allow-list has %d with path parameters", len(ops), countParamRoutes())
	}
	for _, op := range ops {
		for pos := range op.arity {
			for _, hostile := range hostileValues {
				if hostile == "" && pos == 2 && strings.Contains(op.route, "{subDAGRunId}") {
					continue // an empty SubRunID addresses the root run by design
				}
				values := make([]string, op.arity)
				for i := range values {
					values[i] = "ok_" + string(rune('a'+i))
				}
				values[pos] = hostile
				before := rec.count()
				err := op.call(c, values)
				sent := rec.all()[before:]
				if !validParam(hostile) {
					if kindOf(err) != "refused" || len(sent) != 0 {
						t.Errorf("%s param %d = %q: err=%v, sent %d requests; want refused", op.route, pos, hostile, err, len(sent))
					}
					continue
				}
				if len(sent) != 1 {
					t.Errorf("%s param %d = %q: sent %d requests (err %v)", op.route, pos, hostile, len(sent), err)
					continue
				}
				checkArrived(t, op.route, sent[0].EscapedPath, values)
			}
		}
	}
}

func countParamRoutes() int {
	n := 0
	for route := range allowedRoutes {
		if strings.Contains(route, "{") {
			n++
		}
	}
	return n
}

// checkArrived verifies the escaped path is the route with the values.
func checkArrived(t *testing.T, route, escapedPath string, values []string) {
	t.Helper()
	rest, ok := strings.CutPrefix(escapedPath, "/api/v1/")
	tmpl := strings.Split(strings.TrimPrefix(route, "/"), "/")
	segs := strings.Split(rest, "/")
	if !ok || len(segs) != len(tmpl) {
		t.Errorf("%s with %q arrived as %s", route, values, escapedPath)
		return
	}
	k := 0
	for i, lit := range tmpl {
		if !strings.HasPrefix(lit, "{") {
			if segs[i] != lit {
				t.Errorf("%s arrived as %s", route, escapedPath)
			}
			continue
		}
		got, err := url.PathUnescape(segs[i])
		if err != nil || got != values[k] {
			t.Errorf("%s: parameter %d arrived as %q, sent %q", route, k, segs[i], values[k])
		}
		k++
	}
}

// TestRawClientCannotEscape calls the generated client directly, without
// the helpers' parameter checks: URL resolution eats dot segments, but the
// doer's guard still refuses anything outside the allow-list.
func TestRawClientCannotEscape(t *testing.T) {
	t.Parallel()
	srv, rec := newServer(t, func(w http.ResponseWriter, _ *http.Request) { writeJSON(w, 200, `{}`) })
	c := newTestClient(t, srv.URL, nil)
	ctx := context.Background()
	stdout := gen.GetDAGRunStepLogParams{Stream: gen.StreamStdout}
	calls := map[string]func() error{
		"dag ..":          func() error { _, err := c.api().GetDAG(ctx, ".."); return err },
		"dag .":           func() error { _, err := c.api().GetDAG(ctx, "."); return err },
		"run ../api-keys": func() error { _, err := c.api().GetDAGRun(ctx, "..", "api-keys"); return err },
		"step .. to run log": func() error {
			_, err := c.api().GetDAGRunStepLog(ctx, "n", "r", "..", &stdout)
			return err
		},
	}
	for name, call := range calls {
		if err := call(); kindOf(err) != "refused" {
			t.Errorf("%s: err = %v, want refused", name, err)
		}
	}
	for _, s := range rec.all() {
		rest, _ := strings.CutPrefix(s.EscapedPath, "/api/v1")
		if _, ok := newMatcher(allowedRoutes).match(rest); !ok {
			t.Errorf("request outside the allow-list arrived: %s", s.EscapedPath)
		}
	}
}

// TestEveryGeneratedOperationPassesGuard calls every operation of the
// generated client with every parameter set, so the allow-list can never
// be narrower than what openapi.yaml declares.
func TestEveryGeneratedOperationPassesGuard(t *testing.T) {
	t.Parallel()
	srv, rec := newServer(t, func(w http.ResponseWriter, _ *http.Request) { writeJSON(w, 200, `{}`) })
	c := newTestClient(t, srv.URL, nil)
	raw := reflect.ValueOf(gen.ClientInterface(c.api()))
	iface := reflect.TypeFor[gen.ClientInterface]()
	for i := range iface.NumMethod() {
		name := iface.Method(i).Name
		method := raw.MethodByName(name)
		args := []reflect.Value{reflect.ValueOf(context.Background())}
		mt := method.Type()
		for a := 1; a < mt.NumIn(); a++ {
			if mt.IsVariadic() && a == mt.NumIn()-1 {
				break
			}
			args = append(args, filledValue(mt.In(a)))
		}
		before := rec.count()
		out := method.Call(args)
		if err, _ := out[1].Interface().(error); err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		_ = out[0].Interface().(*http.Response).Body.Close()
		if rec.count() != before+1 {
			t.Errorf("%s: request did not arrive", name)
		}
	}
}

// filledValue returns a non-zero value of type typ: parameter structs get
// every field set.
func filledValue(typ reflect.Type) reflect.Value {
	v := reflect.New(typ).Elem()
	switch typ.Kind() {
	case reflect.String:
		v.SetString("stdout")
	case reflect.Int, reflect.Int64:
		v.SetInt(3)
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Slice:
		v.Set(reflect.Append(reflect.MakeSlice(typ, 0, 2), filledValue(typ.Elem()), filledValue(typ.Elem())))
	case reflect.Pointer:
		v.Set(reflect.New(typ.Elem()))
		v.Elem().Set(filledValue(typ.Elem()))
	case reflect.Struct:
		for i := range typ.NumField() {
			v.Field(i).Set(filledValue(typ.Field(i).Type))
		}
	}
	return v
}

// TestGuardAPIBase: the API base of a request is the REST base its path
// starts under, below any base path of the Dagu URL.
func TestGuardAPIBase(t *testing.T) {
	t.Parallel()
	var bases []*url.URL
	for _, b := range apiBases {
		u, err := restBaseURL("https://dagu.example/api/v2/dagu", b)
		if err != nil {
			t.Fatal(err)
		}
		bases = append(bases, u)
	}
	g := newGuard(bases...)
	tests := []struct {
		path string
		want APIBase
	}{
		{"/api/v2/dagu/api/v1/dag-runs/d/r/log", APIv1},
		{"/api/v2/dagu/api/v2/dag-runs/d/r/log", APIv2},
		{"/api/v2/dag-runs/d/r/log", ""},
		{"/api/v2/dagu/api/v2dags", ""},
	}
	for _, tt := range tests {
		u, err := url.Parse("https://dagu.example" + tt.path)
		if err != nil {
			t.Fatal(err)
		}
		if got := g.apiBase(u); got != tt.want {
			t.Errorf("%s: API base %q, want %q", tt.path, got, tt.want)
		}
	}
}
