// SPDX-License-Identifier: Apache-2.0

package upstream

import (
	"fmt"

	"github.com/dagu-mcp-gateway/gateway/internal/restclient"
)

// How the gateway serves a target on the detected Dagu.
const (
	Served      = "served"
	Emulated    = "emulated"
	Unavailable = "unavailable"
)

// TargetSupport is one row of what doctor and /readyz report: how a
// dagu_read target is served on the detected Dagu, and why when it is not
// served as on a current release.
type TargetSupport struct {
	Target string `json:"target"`
	How    string `json:"how"`
	Note   string `json:"note,omitempty"`
}

// Support lists every dagu_read target with how this Dagu serves it. The
// rows follow the dialect choices the adapter makes for the same
// capabilities.
func Support(caps restclient.Capabilities) []TargetSupport {
	local := TargetSupport{How: Served, Note: "answered by the gateway itself"}
	rows := []TargetSupport{
		withTarget("references", local), withTarget("reference", local),
		dagsSupport(caps),
		{Target: "dag", How: Served},
		{Target: "dag_spec", How: Served},
		dagSearchSupport(caps),
	}
	rows = append(rows, wikiSupport(caps)...)
	rows = append(rows,
		withTarget("workbook", local),
		runsSupport(caps),
		runSupport(caps),
		TargetSupport{Target: "run_logs", How: Served},
		stepLogSupport(caps),
	)
	return append(rows, foreachSupport(caps)...)
}

func withTarget(target string, s TargetSupport) TargetSupport {
	s.Target = target
	return s
}

func dagsSupport(caps restclient.Capabilities) TargetSupport {
	if dagLabelParam(caps) == labelParamTag {
		return TargetSupport{Target: "dags", How: Served,
			Note: fmt.Sprintf("this Dagu filters by one label (tag): with several, the first is sent and the gateway applies the others over at most %d DAGs", emulatedMaxItems)}
	}
	return TargetSupport{Target: "dags", How: Served}
}

func dagSearchSupport(caps restclient.Capabilities) TargetSupport {
	switch {
	case caps.SearchDAGs:
		return TargetSupport{Target: "dag_search", How: Served}
	case caps.SearchDAGsLegacy:
		return TargetSupport{Target: "dag_search", How: Emulated,
			Note: fmt.Sprintf("from the older /dags/search; cursor, limit and hasMore made by the gateway over at most %d results", emulatedMaxItems)}
	}
	return TargetSupport{Target: "dag_search", How: Unavailable, Note: "this Dagu has no DAG search route"}
}

func wikiSupport(caps restclient.Capabilities) []TargetSupport {
	targets := []string{"wiki", "wiki_page", "wiki_search"}
	out := make([]TargetSupport, len(targets))
	for i, t := range targets {
		switch {
		case caps.Wiki:
			out[i] = TargetSupport{Target: t, How: Served}
		case caps.Docs:
			out[i] = TargetSupport{Target: t, How: Emulated, Note: "from the /docs routes of Dagu 2.0-2.6 (a prefix is applied by the gateway)"}
		default:
			out[i] = TargetSupport{Target: t, How: Unavailable, Note: "Dagu 1.x has no wiki"}
		}
	}
	if !hasWorkspaces(caps) && caps.Docs {
		for i := range out {
			out[i].Note += "; no workspaces on this release: only default and all"
		}
	}
	return out
}

func runsSupport(caps restclient.Capabilities) TargetSupport {
	if caps.RunListFilters {
		return TargetSupport{Target: "runs", How: Served}
	}
	return TargetSupport{Target: "runs", How: Emulated,
		Note: fmt.Sprintf("several status values, labels, limit and cursor are applied by the gateway over at most %d runs of the window", emulatedMaxItems)}
}

func runSupport(caps restclient.Capabilities) TargetSupport {
	s := TargetSupport{Target: "run", How: Served}
	switch {
	case !hasSubRunRoutes(caps):
		s.Note = "sub-runs (subRunId) unavailable: this Dagu has no sub-run routes"
	case !caps.EventLogs:
		s.Note = "attemptId omitted (needs the /event-logs route)"
	}
	return s
}

func stepLogSupport(caps restclient.Capabilities) TargetSupport {
	if caps.ForeachRoutes {
		return TargetSupport{Target: "step_log", How: Served}
	}
	return TargetSupport{Target: "step_log", How: Served, Note: "body-step logs of foreach items (item + bodyStepName) unavailable: they need the /foreach routes"}
}

func foreachSupport(caps restclient.Capabilities) []TargetSupport {
	if caps.ForeachRoutes {
		return []TargetSupport{{Target: "foreach_items", How: Served}, {Target: "foreach_item", How: Served}}
	}
	if !caps.LogDownloads {
		note := "this Dagu has neither the /foreach routes nor the step-log downloads a foreach summary is read from"
		return []TargetSupport{{Target: "foreach_items", How: Unavailable, Note: note}, {Target: "foreach_item", How: Unavailable, Note: note}}
	}
	note := "from the summary a finished foreach step writes to its stdout: no live progress, per-item times, nested items or body steps"
	return []TargetSupport{{Target: "foreach_items", How: Emulated, Note: note}, {Target: "foreach_item", How: Emulated, Note: note}}
}
