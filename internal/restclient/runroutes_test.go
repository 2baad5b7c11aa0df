// SPDX-License-Identifier: Apache-2.0

package restclient

import (
	"reflect"
	"testing"
)

// TestRunRoutesFamilies: every route of every family is on the allow-list
// (a family may lack a route: Dagu 1.17's sub-runs have no spec, download
// or foreach routes, but every family reads details and logs), and each
// reference is read through its own family.
func TestRunRoutesFamilies(t *testing.T) {
	t.Parallel()
	for family, routes := range runRouteTable {
		if routes.Details == "" || routes.SchedulerLog == "" || routes.StepLog == "" {
			t.Errorf("family %d cannot read a run's details and logs: %+v", family, routes)
		}
		v := reflect.ValueOf(routes)
		for i := range v.NumField() {
			if v.Field(i).String() == "" {
				continue
			}
			if _, ok := allowedRoutes[v.Field(i).String()]; !ok {
				t.Errorf("family %d: %s %q is not an allowed route", family, v.Type().Field(i).Name, v.Field(i).String())
			}
		}
	}
	c := newTestClient(t, "http://127.0.0.1:1", nil)
	root := RunRef{Name: "n", RunID: "r"}
	sub := RunRef{Name: "n", RunID: "r", SubRunID: "s"}
	tests := []struct {
		step StepRef
		want string
	}{
		{StepRef{Run: root, Step: "a"}, RouteStepLog},
		{StepRef{Run: sub, Step: "a"}, RouteSubStepLog},
		{StepRef{Run: root, Step: "a", Item: "1", BodyStep: "b"}, RouteForeachBodyLog},
		{StepRef{Run: sub, Step: "a", Item: "1", BodyStep: "b"}, RouteSubForeachBodyLog},
	}
	for _, tt := range tests {
		if got := c.StepLogRoute(tt.step); got != tt.want {
			t.Errorf("StepLogRoute(%+v) = %s, want %s", tt.step, got, tt.want)
		}
	}
	if got := c.RunRoutes(sub).Details; got != RouteSubRun {
		t.Errorf("RunRoutes(sub).Details = %s", got)
	}
	if got := c.RunRoutes(root).Details; got != RouteRun {
		t.Errorf("RunRoutes(root).Details = %s", got)
	}
}
