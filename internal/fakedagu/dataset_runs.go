// SPDX-License-Identifier: Apache-2.0

package fakedagu

import (
	"regexp"
	"strings"
	"time"
)

var (
	runDetailsPath = regexp.MustCompile(`^/dag-runs/[^/?]+/[^/?]+$`)
	subDetailsPath = regexp.MustCompile(`^/dag-runs/[^/?]+/[^/?]+/(?:sub-dag-runs|children)/([^/?]+)$`)
	dagDetailsPath = regexp.MustCompile(`^/dags/([^/?]+)$`)
)

// detailOnlyKeys are the DAGRunDetails fields a DAGRunSummary lacks.
var detailOnlyKeys = []string{
	"rootDAGRunName", "rootDAGRunId", "parentDAGRunName", "parentDAGRunId",
	"log", "nodes", "onInit", "onExit", "onSuccess", "onFailure", "onAbort",
	"onWait", "preconditions", "agentTasks", "agentEvents", "specFromFile",
	"sourceFileName", "humanTaskResumePending",
}

// handlerKeys are the DAGRunDetails fields that hold handler nodes.
var handlerKeys = []string{"onInit", "onExit", "onSuccess", "onFailure", "onAbort", "onWait"}

// runBuilder turns recorded and authored run documents into run records.
type runBuilder struct {
	src       *sources
	dialect   *dialect
	details   map[string]obj // run ID -> recorded or authored root details
	subs      map[string]obj // sub-run ID -> recorded sub-run details
	logs      recordedLogs
	foreach   []obj // authored per-item foreach records
	templates map[string]runTemplate
	startOf   map[string]time.Time // run ID -> start, for foreach record times
	// sourceKeys: recorded run details carry sourceFileName and
	// specFromFile (details derived from a DAG's latestDAGRun get them too).
	sourceKeys bool
}

// buildRuns builds the root runs in list order: those of the recorded
// all-time list, then the added ones placed by time.
func buildRuns(src *sources, d *dialect) []*runRecord {
	b := &runBuilder{
		src:       src,
		dialect:   d,
		details:   map[string]obj{},
		subs:      map[string]obj{},
		logs:      readRecordedLogs(src),
		templates: map[string]runTemplate{},
		startOf:   map[string]time.Time{},
	}
	b.collectDetails()
	for _, s := range getArr(src.derived["foreach"], "steps") {
		b.foreach = append(b.foreach, mustObj(s, "foreach record"))
	}
	var runs, extras []*runRecord
	for _, s := range getArr(src.body(allRunsRecording), "dagRuns") {
		runs = append(runs, b.rootRun(mustObj(s, "run summary")))
	}
	for _, e := range getArr(src.derived["runs"], "extraRuns") {
		details := mustObj(e, "extra run")
		r := b.makeRoot(details, withoutKeys(details, detailOnlyKeys...), nil, nil)
		r.extra = true
		extras = append(extras, r)
	}
	return mergeRuns(runs, extras)
}

// collectDetails indexes every recorded and authored run document.
func (b *runBuilder) collectDetails() {
	for path, body := range b.src.recorded {
		o, ok := body.(obj)
		if !ok {
			continue
		}
		d := getObj(o, "dagRunDetails")
		switch {
		case d == nil:
		case subDetailsPath.MatchString(path):
			b.subs[getStr(d, "dagRunId")] = d
		case runDetailsPath.MatchString(path):
			b.details[getStr(d, "dagRunId")] = d
		}
		if _, ok := d["sourceFileName"]; ok {
			b.sourceKeys = true
		}
	}
	for path, body := range b.src.recorded {
		m := dagDetailsPath.FindStringSubmatch(path)
		latest := getObj(mustObj(body, path), "latestDAGRun")
		if m == nil || latest == nil || getStr(latest, "dagRunId") == "" {
			continue
		}
		if _, known := b.details[getStr(latest, "dagRunId")]; !known {
			d := withoutKeys(latest)
			if b.sourceKeys {
				d["sourceFileName"] = m[1]
				d["specFromFile"] = true
			}
			b.details[getStr(d, "dagRunId")] = d
		}
	}
	for _, e := range getArr(b.src.derived["runs"], "runs") {
		d := mustObj(e, "authored run")
		b.details[getStr(d, "dagRunId")] = d
	}
	for _, e := range getArr(b.src.derived["runs"], "extraRuns") {
		d := mustObj(e, "extra run")
		b.startOf[getStr(d, "dagRunId")] = parseRecordedTime(getStr(d, "startedAt"))
	}
	for id, d := range b.details {
		b.startOf[id] = parseRecordedTime(getStr(d, "startedAt"))
	}
}

// rootRun builds the run a summary of the all-time list describes.
func (b *runBuilder) rootRun(summary obj) *runRecord {
	id := getStr(summary, "dagRunId")
	if d, ok := b.details[id]; ok {
		r := b.makeRoot(d, summary, b.subsOf(d), nil)
		b.rememberTemplate(r.name, d)
		return r
	}
	t, ok := b.templates[getStr(summary, "name")]
	if !ok {
		panic("fakedagu: no run to derive " + id + " from")
	}
	c := cloneRun(t, summary)
	b.startOf[id] = parseRecordedTime(getStr(summary, "startedAt"))
	return b.makeRoot(c.details, summary, c.subs, c.transform)
}

// rememberTemplate keeps the newest recorded run of each DAG; the all-time
// list is newest first, so the first one seen wins.
func (b *runBuilder) rememberTemplate(name string, details obj) {
	if _, ok := b.templates[name]; !ok {
		b.templates[name] = runTemplate{details: details, subs: b.subsOf(details)}
	}
}

// subsOf returns the recorded details of a run's sub-runs.
func (b *runBuilder) subsOf(details obj) map[string]obj {
	out := map[string]obj{}
	for _, ref := range subRunRefs(details) {
		if d, ok := b.subs[ref.id]; ok {
			out[ref.id] = d
		}
	}
	return out
}

// makeRoot builds a root run record. transform, when set, is the rewrite
// that derived this run from its template; the template's recorded
// scheduler log is rewritten the same way.
func (b *runBuilder) makeRoot(details, summary obj, subs map[string]obj, transform func(string) string) *runRecord {
	r := b.makeRecord(details)
	r.summary = summary
	r.labels = lowerAll(labelsOf(summary))
	r.schedulerLog = b.schedulerLog(r, transform)
	r.subParams = map[string]string{}
	for _, ref := range subRunRefs(details) {
		d, ok := subs[ref.id]
		if !ok {
			continue
		}
		sub := b.makeRecord(d)
		sub.root = r
		sub.schedulerLog = b.subSchedulerLog(sub)
		r.subRuns = append(r.subRuns, sub)
		r.subParams[ref.id] = ref.params
	}
	return r
}

// makeRecord builds the parts root runs and sub-runs share.
func (b *runBuilder) makeRecord(details obj) *runRecord {
	r := &runRecord{
		name:    getStr(details, "name"),
		id:      getStr(details, "dagRunId"),
		ts:      parseRecordedTime(getStr(details, "startedAt")),
		status:  getInt(details, "status"),
		details: details,
		nodes:   nodesByStep(details),
	}
	r.attemptID = attemptOf(details)
	r.stepLogs = b.logs.stepLogsOf(r.name, getArr(details, "nodes"))
	for key, node := range r.nodes {
		if _, ok := r.stepLogs[key]; !ok {
			r.stepLogs[key] = b.logs.stepLogsOf(r.name, arr{node})[stepName(node)]
		}
	}
	r.foreach = b.foreachRecords(r)
	return r
}

// subSchedulerLog is a sub-run's scheduler log: recorded, generated on
// releases that keep one, or none (the current server answers 404).
func (b *runBuilder) subSchedulerLog(sub *runRecord) *logFile {
	if lines, ok := b.logs.scheduler[sub.id]; ok {
		return newLogFile(newStoredLog(lines...))
	}
	if !b.dialect.subRunSchedulerLog {
		return nil
	}
	return newLogFile(generatedSchedulerLog(sub.details, sub.attemptID))
}

func (b *runBuilder) schedulerLog(r *runRecord, transform func(string) string) *logFile {
	if lines, ok := b.logs.scheduler[r.id]; ok {
		return newLogFile(newStoredLog(lines...))
	}
	if transform != nil {
		if t, ok := b.templates[r.name]; ok {
			if lines, ok := b.logs.scheduler[getStr(t.details, "dagRunId")]; ok {
				out := make([]string, len(lines))
				for i, l := range lines {
					out[i] = transform(l)
				}
				return newLogFile(newStoredLog(out...))
			}
		}
	}
	return newLogFile(generatedSchedulerLog(r.details, r.attemptID))
}

// nodesByStep indexes a run's nodes by step name; handler nodes are also
// reachable by their handler field name (onExit, onFailure, ...).
func nodesByStep(details obj) map[string]obj {
	out := map[string]obj{}
	for _, n := range getArr(details, "nodes") {
		node := mustObj(n, "node")
		out[stepName(node)] = node
	}
	for _, key := range handlerKeys {
		if node := getObj(details, key); node != nil {
			out[stepName(node)] = node
			out[key] = node
		}
	}
	return out
}

// labelsOf returns the labels of a DAG or run object: "labels", or "tags"
// on releases that only have tags.
func labelsOf(o obj) []string {
	if _, ok := o["labels"]; ok {
		return getStrings(o, "labels")
	}
	return getStrings(o, "tags")
}

func stepName(node obj) string { return getStr(getObj(node, "step"), "name") }

// subRunRef is one sub-run a node started.
type subRunRef struct{ id, dagName, params string }

// subRunNodeKeys are the node fields naming sub-runs: "subRuns" and
// "subRunsRepeated", or "children" and "childrenRepeated" on 1.17 (a node
// carries the pair of its own release only).
var subRunNodeKeys = []string{"subRuns", "subRunsRepeated", "children", "childrenRepeated"}

// subRunRefs lists the sub-runs a run's nodes started, in node order.
func subRunRefs(details obj) []subRunRef {
	var out []subRunRef
	for _, n := range getArr(details, "nodes") {
		node := mustObj(n, "node")
		for _, key := range subRunNodeKeys {
			for _, s := range getArr(node, key) {
				sub := mustObj(s, "sub-run")
				out = append(out, subRunRef{getStr(sub, "dagRunId"), getStr(sub, "dagName"), getStr(sub, "params")})
			}
		}
	}
	return out
}

// subRunListEntry is a sub-run as the sub-run list shows it (039).
func subRunListEntry(root, sub *runRecord) obj {
	e := obj{
		"dagName":     sub.name,
		"dagRunId":    sub.id,
		"startedAt":   getStr(sub.details, "startedAt"),
		"status":      sub.status,
		"statusLabel": getStr(sub.details, "statusLabel"),
	}
	if p := root.subParams[sub.id]; p != "" {
		e["params"] = p
	}
	if f := getStr(sub.details, "finishedAt"); f != "" {
		e["finishedAt"] = f
	}
	return e
}

// isForeachNode reports whether a node runs a foreach step.
func isForeachNode(node obj) bool {
	return getStr(getObj(getObj(node, "step"), "executorConfig"), "type") == "foreach"
}

// echoOutput is what a step whose command is echo prints: the step has
// one command in "commands", or (1.17) "command" and "args" of its own.
func echoOutput(node obj) (string, bool) {
	step := getObj(node, "step")
	cmd := step
	if cmds := getArr(step, "commands"); cmds != nil {
		if len(cmds) != 1 {
			return "", false
		}
		cmd = mustObj(cmds[0], "command")
	}
	if getStr(cmd, "command") != "echo" {
		return "", false
	}
	return strings.Join(getStrings(cmd, "args"), " "), true
}
