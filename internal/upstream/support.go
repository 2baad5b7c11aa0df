// SPDX-License-Identifier: Apache-2.0

package upstream

import (
	"fmt"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
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

// Support rule names: a read target's row names the one that says how a
// Dagu serves it. "served" and "local" fit any target served alike on
// every release; the others follow the dialect choices the adapter makes
// for the same capabilities.
const (
	RuleLocal     = "local"
	RuleServed    = "served"
	RuleDAGs      = "dags"
	RuleDAGSearch = "dag_search"
	RuleWiki      = "wiki"
	RuleRuns      = "runs"
	RuleRun       = "run"
	RuleStepLog   = "step_log"
	RuleForeach   = "foreach"
)

// supportRules says, per rule name, how the detected capabilities serve a
// target; TestSupportRuleForEveryTarget fails naming a target whose row
// names a rule missing here.
var supportRules = map[string]func(restclient.Capabilities) TargetSupport{
	RuleLocal:     local,
	RuleServed:    served,
	RuleDAGs:      dagsSupport,
	RuleDAGSearch: dagSearchSupport,
	RuleWiki:      wikiSupport,
	RuleRuns:      runsSupport,
	RuleRun:       runSupport,
	RuleStepLog:   stepLogSupport,
	RuleForeach:   foreachSupport,
}

// HasSupportRule reports whether a support rule of that name exists.
func HasSupportRule(name string) bool { return supportRules[name] != nil }

// Support lists the given dagu_read targets, in their order, with how
// this Dagu serves each by its rule.
func Support(caps restclient.Capabilities, targets []model.TargetRule) []TargetSupport {
	rows := make([]TargetSupport, 0, len(targets))
	for _, t := range targets {
		rule, ok := supportRules[t.Support]
		if !ok {
			rows = append(rows, TargetSupport{Target: t.Target, How: Unavailable, Note: "the gateway has no support rule for this target"})
			continue
		}
		row := rule(caps)
		row.Target = t.Target
		rows = append(rows, row)
	}
	return rows
}

func local(restclient.Capabilities) TargetSupport {
	return TargetSupport{How: Served, Note: "answered by the gateway itself"}
}

func served(restclient.Capabilities) TargetSupport { return TargetSupport{How: Served} }

func dagsSupport(caps restclient.Capabilities) TargetSupport {
	if dagLabelParam(caps) == labelParamTag {
		return TargetSupport{How: Served,
			Note: fmt.Sprintf("this Dagu filters by one label (tag): with several, the first is sent and the gateway applies the others over at most %d DAGs (more carrying the first fail as resource_unavailable)", emulatedMaxItems)}
	}
	return TargetSupport{How: Served}
}

func dagSearchSupport(caps restclient.Capabilities) TargetSupport {
	switch {
	case caps.SearchDAGs:
		return TargetSupport{How: Served}
	case caps.SearchDAGsLegacy:
		return TargetSupport{How: Emulated,
			Note: fmt.Sprintf("from the older /dags/search; cursor, limit and hasMore made by the gateway over at most %d results", emulatedMaxItems)}
	}
	return TargetSupport{How: Unavailable, Note: "this Dagu has no DAG search route"}
}

func wikiSupport(caps restclient.Capabilities) TargetSupport {
	var s TargetSupport
	switch {
	case caps.Wiki:
		s = TargetSupport{How: Served}
	case caps.Docs:
		s = TargetSupport{How: Emulated, Note: "from the /docs routes of Dagu 2.0-2.6 (a prefix is applied by the gateway)"}
	default:
		s = TargetSupport{How: Unavailable, Note: "Dagu 1.x has no wiki"}
	}
	if !hasWorkspaces(caps) && caps.Docs {
		s.Note += "; no workspaces on this release: only default and all"
	}
	return s
}

func runsSupport(caps restclient.Capabilities) TargetSupport {
	if caps.RunListFilters {
		return TargetSupport{How: Served}
	}
	return TargetSupport{How: Emulated,
		Note: fmt.Sprintf("several status values, labels, limit and cursor are applied by the gateway over at most %d runs of the window", emulatedMaxItems)}
}

func runSupport(caps restclient.Capabilities) TargetSupport {
	s := TargetSupport{How: Served}
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
		return TargetSupport{How: Served}
	}
	return TargetSupport{How: Served, Note: "body-step logs of foreach items (item + bodyStepName) unavailable: they need the /foreach routes"}
}

func foreachSupport(caps restclient.Capabilities) TargetSupport {
	if caps.ForeachRoutes {
		return TargetSupport{How: Served}
	}
	if !hasForeachSource(caps) {
		return TargetSupport{How: Unavailable,
			Note: "this Dagu has neither the /foreach routes nor the step-log downloads a foreach summary is read from"}
	}
	return TargetSupport{How: Emulated,
		Note: "from the summary a finished foreach step writes to its stdout: no live progress, per-item times, nested items or body steps"}
}
