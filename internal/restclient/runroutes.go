// SPDX-License-Identifier: Apache-2.0

package restclient

// RunRoutes names the routes that read the parts of one run. Which family
// a run is read through (a root run's own routes, or a sub-run's through
// its root) is decided in one place, Client.RunRoutes; every run-scoped
// call of this package takes its route from there and upstream names its
// errors with the same strings. A new family (another release's sub-run
// routes, say) is one row of runRouteTable, one case in runFamily, and one
// case per call in calls_runs.go and calls_foreach.go.
type RunRoutes struct {
	Details        string
	SchedulerLog   string
	Spec           string
	StepLog        string
	StepDownload   string
	ForeachItems   string
	ForeachItem    string
	ForeachBodyLog string
}

// runFamily is a family of run routes.
type runFamily uint8

const (
	familyRoot  runFamily = iota // /dag-runs/{name}/{dagRunId}/...
	familySub                    // .../sub-dag-runs/{subDAGRunId}/...
	familyChild                  // .../children/{childDAGRunId}/... (Dagu 1.17)
)

// runRouteTable holds the routes of each family.
var runRouteTable = [...]RunRoutes{
	familyRoot: {
		Details: RouteRun, SchedulerLog: RouteRunLog, Spec: RouteRunSpec,
		StepLog: RouteStepLog, StepDownload: RouteStepLogDownload,
		ForeachItems: RouteForeachItems, ForeachItem: RouteForeachItem, ForeachBodyLog: RouteForeachBodyLog,
	},
	familySub: {
		Details: RouteSubRun, SchedulerLog: RouteSubRunLog, Spec: RouteSubRunSpec,
		StepLog: RouteSubStepLog, StepDownload: RouteSubStepDownload,
		ForeachItems: RouteSubForeachItems, ForeachItem: RouteSubForeachItem, ForeachBodyLog: RouteSubForeachBodyLog,
	},
	// Dagu 1.17 has no spec, download or foreach routes for sub-runs: a
	// call for one of those is refused (see unknownRoute).
	familyChild: {Details: RouteChildRun, SchedulerLog: RouteChildRunLog, StepLog: RouteChildStepLog},
}

// runFamily decides which family reads the run ref names.
func (c *Client) runFamily(ref RunRef) runFamily {
	switch {
	case ref.IsSub() && c.ChildRoutes():
		return familyChild
	case ref.IsSub():
		return familySub
	}
	return familyRoot
}

// RunRoutes returns the routes that read the run ref names.
func (c *Client) RunRoutes(ref RunRef) RunRoutes { return runRouteTable[c.runFamily(ref)] }

// StepRef addresses one step of a run or, with Item and BodyStep, one body
// step of one item of a foreach step.
type StepRef struct {
	Run  RunRef
	Step string
	// Item is the server's opaque item path and BodyStep a step of the
	// foreach body; both set for a body step, both empty otherwise.
	Item, BodyStep string
}

// IsBody reports whether the reference is to a foreach body step.
func (s StepRef) IsBody() bool { return s.Item != "" || s.BodyStep != "" }

// StepLogRoute returns the route that reads the step's log windows.
func (c *Client) StepLogRoute(s StepRef) string {
	routes := c.RunRoutes(s.Run)
	if s.IsBody() {
		return routes.ForeachBodyLog
	}
	return routes.StepLog
}

// check refuses unusable path parameters of the reference.
func (s StepRef) check(route string) error {
	if s.IsBody() {
		return s.Run.check(route, s.Step, s.Item, s.BodyStep)
	}
	return s.Run.check(route, s.Step)
}

// unknownRoute reports a run-scoped call that has no operation for the
// route the family table chose: a programming error, refused before
// anything is sent.
func unknownRoute(route string) error {
	return refused(route, "no operation reads this route")
}
