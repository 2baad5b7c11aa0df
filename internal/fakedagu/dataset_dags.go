// SPDX-License-Identifier: Apache-2.0

package fakedagu

import (
	"net/url"
	"sort"
	"strings"
)

// buildDAGs builds every DAG file: the sixteen of the recorded list (003)
// plus the extra DAGs the fake adds. Recorded details and specs are used as
// recorded; the rest are derived in the same shapes.
func buildDAGs(src *sources, ds *dataset, d *dialect) []*dagRecord {
	authored := getObj(src.derived["dags"], "dags")
	var shapes *dagShapes
	if d.derivesFromShapes {
		shapes = recordedDAGShapes(src)
	}
	var out []*dagRecord
	for _, e := range getArr(src.body("/dags"), "dags") {
		entry := mustObj(e, "DAG file")
		out = append(out, buildDAG(src, ds, entry, getObj(authored, getStr(entry, "fileName")), shapes))
	}
	for name, e := range getObj(src.derived["dags"], "extraDags") {
		entry := extraListEntry(ds, name, mustObj(e, "extra DAG"))
		dag := buildDAG(src, ds, entry, getObj(authored, name), shapes)
		dag.extra = true
		out = append(out, dag)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].fileName < out[j].fileName })
	return out
}

func buildDAG(src *sources, ds *dataset, entry, authored obj, shapes *dagShapes) *dagRecord {
	fileName := getStr(entry, "fileName")
	listDAG := getObj(entry, "dag")
	d := &dagRecord{
		fileName:  fileName,
		name:      getStr(listDAG, "name"),
		labels:    lowerAll(labelsOf(listDAG)),
		listEntry: entry,
		spec:      src.specOf(fileName),
	}
	if d.spec == "" {
		d.spec = fallbackSpec(listDAG)
	}
	if suspended, _ := entry["suspended"].(bool); !suspended {
		d.nextRun = parseRecordedTime(getStr(entry, "nextRun"))
	}
	for _, s := range getArr(listDAG, "schedule") {
		d.schedules = append(d.schedules, getStr(mustObj(s, "schedule"), "expression"))
	}
	recordedPath := "/dags/" + url.PathEscape(fileName)
	recordedSpec := src.optionalBody(recordedPath + "/spec")
	if _, ok := recordedSpec["spec"]; !ok {
		recordedSpec = nil
	}
	latest := ds.latestRun(d.name, func(*runRecord) bool { return true })
	switch details := src.optionalBody(recordedPath); {
	case details != nil:
		d.details = details
	case shapes != nil:
		d.details = shapes.details(d, entry, latest)
	default:
		d.details = derivedDAGDetails(d, entry, authored, recordedSpec, latest)
	}
	d.specBody = recordedSpec
	if d.specBody == nil {
		d.specBody = derivedSpecBody(d, shapes)
	}
	return d
}

// fallbackSpec is the spec of a DAG no recording shows a line of: its
// description, when the list has one.
func fallbackSpec(listDAG obj) string {
	if desc := getStr(listDAG, "description"); desc != "" {
		return "description: " + desc + "\n"
	}
	return ""
}

// derivedSpecBody is GET /dags/{fileName}/spec of a DAG whose spec answer
// was not recorded, in the keys of the recorded one (015).
func derivedSpecBody(d *dagRecord, shapes *dagShapes) obj {
	body := obj{"dag": getObj(d.details, "dag"), "errors": nil, "spec": d.spec, "valueReferenceNotices": arr{}}
	if shapes != nil && shapes.spec != nil {
		if _, ok := shapes.spec["valueReferenceNotices"]; !ok {
			delete(body, "valueReferenceNotices")
		}
	}
	return body
}

// derivedDAGDetails builds GET /dags/{fileName} for a DAG whose details were
// not recorded, in the shape of 009-011.
func derivedDAGDetails(d *dagRecord, entry, authored, recordedSpec obj, latest *runRecord) obj {
	dag := getObj(recordedSpec, "dag")
	if dag == nil {
		dag = derivedDAGObject(d, entry, authored, latest)
	}
	details := obj{
		"dag":       dag,
		"errors":    arr{},
		"localDags": arr{},
		"spec":      d.spec,
		"suspended": entry["suspended"],
	}
	if latest != nil {
		details["latestDAGRun"] = withoutKeys(latest.details, "sourceFileName", "specFromFile")
	} else {
		details["latestDAGRun"] = neverRanDetails(d.name, dag)
	}
	return details
}

func derivedDAGObject(d *dagRecord, entry, authored obj, latest *runRecord) obj {
	listDAG := getObj(entry, "dag")
	schedule := getArr(listDAG, "schedule")
	if schedule == nil {
		schedule = arr{}
	}
	dag := obj{
		"env": arr{}, "histRetentionDays": 30, "maxActiveRuns": 1, "maxActiveSteps": 10,
		"name": d.name, "params": arr{}, "preconditions": arr{},
		"schedule": deepCopy(schedule), "steps": dagSteps(authored, latest), "type": "graph",
	}
	if desc := getStr(listDAG, "description"); desc != "" {
		dag["description"] = desc
	}
	if labels := getStrings(listDAG, "labels"); len(labels) > 0 {
		dag["labels"] = stringsToArr(labels)
		dag["tags"] = stringsToArr(labels)
	}
	if next := getStr(entry, "nextRun"); next != "" {
		dag["nextRun"] = next
	}
	for k, v := range getObj(authored, "fields") {
		dag[k] = deepCopy(v)
	}
	return dag
}

// dagSteps returns a DAG's step definitions: authored ones, or the steps of
// its latest run with the executor config a definition always carries.
func dagSteps(authored obj, latest *runRecord) arr {
	if steps := getArr(authored, "steps"); steps != nil {
		return mustArr(deepCopy(steps))
	}
	steps := arr{}
	if latest == nil {
		return steps
	}
	for _, n := range getArr(latest.details, "nodes") {
		step := mustObj(deepCopy(getObj(mustObj(n, "node"), "step")), "step")
		ec := obj{"config": obj{}}
		for k, v := range getObj(step, "executorConfig") {
			ec[k] = v
		}
		step["executorConfig"] = ec
		steps = append(steps, step)
	}
	return steps
}

// neverRanDetails is the latestDAGRun Dagu reports for a DAG without runs
// (010): an unstarted run whose nodes carry "-" times.
func neverRanDetails(name string, dag obj) obj {
	nodes := arr{}
	for _, s := range getArr(dag, "steps") {
		nodes = append(nodes, obj{
			"doneCount": 0, "finishedAt": "-", "retryCount": 0, "startedAt": "-",
			"status": 0, "statusLabel": "not_started", "stderr": "", "stdout": "",
			"step": deepCopy(s), "subRuns": arr{}, "subRunsRepeated": arr{},
		})
	}
	details := obj{
		"artifactsAvailable": false, "autoRetryCount": 0, "autoRetryLimit": nil,
		"dagRunId": "", "finishedAt": "", "labels": nil, "log": "", "name": name,
		"nodes": nodes, "preconditions": arr{}, "rootDAGRunId": "", "rootDAGRunName": "",
		"startedAt": "", "status": 0, "statusLabel": "not_started", "tags": nil,
	}
	if params := getStrings(dag, "params"); len(params) > 0 {
		details["params"] = strings.Join(params, " ")
	}
	return details
}

// extraListEntry builds the GET /dags entry of a DAG the fake adds.
func extraListEntry(ds *dataset, name string, extra obj) obj {
	entry := addedListEntry(name, getStrings(extra, "labels"))
	if desc := getStr(extra, "description"); desc != "" {
		entry["dag"].(obj)["description"] = desc
	}
	if latest := ds.latestRun(name, func(*runRecord) bool { return true }); latest != nil {
		entry["latestDAGRun"] = latest.summary
	}
	return entry
}

// addedListEntry is the GET /dags entry of a DAG file the fake adds (an
// extra or a listed DAG), before its description and latest run.
func addedListEntry(name string, labels []string) obj {
	dag := obj{"labels": stringsToArr(labels), "name": name, "schedule": arr{}, "tags": stringsToArr(labels)}
	return obj{"dag": dag, "errors": arr{}, "fileName": name, "suspended": false}
}

func mustArr(v any) arr {
	a, _ := v.(arr)
	return a
}

// withListedDAGs returns the dataset's DAGs followed by records of the
// listed ones (Options.ListedDAGs): a list entry like an extra DAG's,
// without runs; the dataset itself, shared by every server of the
// profile, is left as it is.
func withListedDAGs(dags []*dagRecord, listed []ListedDAG) []*dagRecord {
	if len(listed) == 0 {
		return dags
	}
	out := append(make([]*dagRecord, 0, len(dags)+len(listed)), dags...)
	for _, l := range listed {
		out = append(out, &dagRecord{fileName: l.Name, name: l.Name, labels: lowerAll(l.Labels), listEntry: addedListEntry(l.Name, l.Labels)})
	}
	return out
}
