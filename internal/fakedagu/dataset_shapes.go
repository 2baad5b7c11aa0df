// SPDX-License-Identifier: Apache-2.0

package fakedagu

import (
	"maps"
	"slices"
	"strings"
)

// Older releases show only some DAG details; the rest are derived in the
// shape of the recorded ones of the same release: the keys of a recorded
// answer are kept, DAG-specific values come from the DAG's list entry and
// its latest run.

// dagShapes are recorded answers of one release used as shape templates.
type dagShapes struct {
	ran      obj // GET /dags/{fileName} of a DAG that ran
	neverRan obj // GET /dags/{fileName} of a DAG that never ran
	spec     obj // GET /dags/{fileName}/spec
}

// recordedDAGShapes picks the templates from the recordings, in path order.
func recordedDAGShapes(src *sources) *dagShapes {
	s := &dagShapes{}
	for _, p := range slices.Sorted(maps.Keys(src.recorded)) {
		body, ok := src.recorded[p].(obj)
		switch {
		case !ok:
		case dagDetailsPath.MatchString(p) && getObj(body, "dag") != nil:
			latest := getObj(body, "latestDAGRun")
			if getStr(latest, "dagRunId") == "" && s.neverRan == nil {
				s.neverRan = body
			} else if getStr(latest, "dagRunId") != "" && s.ran == nil {
				s.ran = body
			}
		case strings.HasPrefix(p, "/dags/") && strings.HasSuffix(p, "/spec") && body["spec"] != nil && s.spec == nil:
			s.spec = body
		}
	}
	return s
}

// details derives GET /dags/{fileName} in the recorded keys.
func (s *dagShapes) details(d *dagRecord, entry obj, latest *runRecord) obj {
	base := s.ran
	if latest == nil || base == nil {
		base = s.neverRan
	}
	if base == nil {
		base = s.ran
	}
	dag := s.dagObject(entry, getObj(base, "dag"), latest)
	out := obj{}
	for k, v := range base {
		switch k {
		case "dag":
			out[k] = dag
		case "latestDAGRun":
			out[k] = s.latestDAGRun(d, dag, latest)
		case "spec":
			out[k] = d.spec
		default:
			if ev, ok := entry[k]; ok {
				v = ev
			}
			out[k] = deepCopy(v)
		}
	}
	return out
}

// dagObject is the list entry's DAG plus the steps of the latest run and
// the settings every recorded DAG object carries (numbers, empty lists).
func (s *dagShapes) dagObject(entry, template obj, latest *runRecord) obj {
	dag := mustObj(deepCopy(getObj(entry, "dag")), "DAG")
	steps := arr{}
	if latest != nil {
		for _, n := range getArr(latest.details, "nodes") {
			steps = append(steps, deepCopy(getObj(mustObj(n, "node"), "step")))
		}
	}
	dag["steps"] = steps
	for k, v := range template {
		if _, ok := dag[k]; ok {
			continue
		}
		switch tv := v.(type) {
		case float64, bool:
			dag[k] = tv
		case arr:
			if len(tv) == 0 {
				dag[k] = arr{}
			}
		}
	}
	return dag
}

// latestDAGRun is the latest run's details, or the unstarted run a DAG that
// never ran reports, built from the recorded one.
func (s *dagShapes) latestDAGRun(d *dagRecord, dag obj, latest *runRecord) obj {
	if latest != nil {
		return withoutKeys(latest.details, "sourceFileName", "specFromFile")
	}
	template := getObj(s.neverRan, "latestDAGRun")
	if template == nil {
		return neverRanDetails(d.name, dag)
	}
	out := mustObj(deepCopy(template), "latestDAGRun")
	out["name"] = d.name
	delete(out, "params")
	if params := getStrings(dag, "params"); len(params) > 0 {
		out["params"] = strings.Join(params, " ")
	}
	nodes := arr{}
	if tn := getArr(template, "nodes"); len(tn) > 0 {
		for _, step := range getArr(dag, "steps") {
			node := mustObj(deepCopy(tn[0]), "node")
			node["step"] = deepCopy(step)
			nodes = append(nodes, node)
		}
	}
	out["nodes"] = nodes
	return out
}
