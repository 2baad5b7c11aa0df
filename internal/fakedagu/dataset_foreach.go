// SPDX-License-Identifier: Apache-2.0

package fakedagu

import "strconv"

// foreachItem is the per-item record a newer Dagu keeps for a foreach step.
type foreachItem struct {
	path       string // "1", or "1.shards.0" for an item of a nested foreach
	index      int
	key        string
	status     int // node status
	err        string
	startedAt  string
	finishedAt string
	steps      []*bodyStep
}

// bodyStep is one step of a foreach item's body.
type bodyStep struct {
	name, id       string
	status         int
	err            string
	startedAt      string
	finishedAt     string
	retryCount     int
	stdout, stderr *logFile // nil: no such file
	foreachParent  string   // set when the body step is itself a foreach
}

// foreachRecord holds every item of one foreach step of one run.
type foreachRecord struct {
	items    []*foreachItem            // top-level items, index order
	byPath   map[string]*foreachItem   // items of every level
	byParent map[string][]*foreachItem // foreachParent value -> nested items
}

// foreachRecords attaches the authored per-item records to the foreach
// steps of a run that have started. Records are authored against one run;
// other runs of the same DAG get them with times moved by the difference in
// run start.
func (b *runBuilder) foreachRecords(r *runRecord) map[string]*foreachRecord {
	out := map[string]*foreachRecord{}
	for _, rec := range b.foreach {
		if getStr(rec, "dagName") != r.name {
			continue
		}
		step := getStr(rec, "stepName")
		node, ok := r.nodes[step]
		if !ok || !isForeachNode(node) || getInt(node, "status") == 0 {
			continue
		}
		base, known := b.startOf[getStr(rec, "templateRunId")]
		shift := timeShift(0)
		if known && !r.ts.IsZero() {
			shift = timeShift(r.ts.Sub(base))
		}
		moved := mustObj(shiftTree(rec, shift), "foreach record")
		fr := &foreachRecord{byPath: map[string]*foreachItem{}, byParent: map[string][]*foreachItem{}}
		fr.items = fr.addItems("", getArr(moved, "items"))
		out[step] = fr
	}
	return out
}

// addItems builds the items of one level; prefix is "" for the top level
// and the foreachParent value (plus ".") for nested levels.
func (fr *foreachRecord) addItems(prefix string, raw arr) []*foreachItem {
	items := make([]*foreachItem, 0, len(raw))
	for _, e := range raw {
		o := mustObj(e, "foreach item")
		it := &foreachItem{
			index:      getInt(o, "index"),
			key:        getStr(o, "key"),
			status:     getInt(o, "status"),
			err:        getStr(o, "error"),
			startedAt:  getStr(o, "startedAt"),
			finishedAt: getStr(o, "finishedAt"),
		}
		it.path = prefix + strconv.Itoa(it.index)
		for _, s := range getArr(o, "steps") {
			it.steps = append(it.steps, fr.addBodyStep(it.path, mustObj(s, "body step")))
		}
		fr.byPath[it.path] = it
		items = append(items, it)
	}
	return items
}

func (fr *foreachRecord) addBodyStep(itemPath string, o obj) *bodyStep {
	bs := &bodyStep{
		name:       getStr(o, "name"),
		id:         getStr(o, "id"),
		status:     getInt(o, "status"),
		err:        getStr(o, "error"),
		startedAt:  getStr(o, "startedAt"),
		finishedAt: getStr(o, "finishedAt"),
		retryCount: getInt(o, "retryCount"),
	}
	if _, ok := o["stdout"]; ok {
		bs.stdout = newLogFile(newStoredLog(getStrings(o, "stdout")...))
	}
	if _, ok := o["stderr"]; ok {
		bs.stderr = newLogFile(newStoredLog(getStrings(o, "stderr")...))
	}
	if nested, ok := o["items"].(arr); ok {
		bs.foreachParent = itemPath + "." + bs.name
		fr.byParent[bs.foreachParent] = fr.addItems(bs.foreachParent+".", nested)
	}
	return bs
}

// foreachBucket maps a node status to the bucket foreach lists count and
// filter by: running and retrying are "running"; statuses without their
// own bucket count as not started.
func foreachBucket(status int) string {
	switch status {
	case 1, 9:
		return "running"
	case 2:
		return "failed"
	case 3:
		return "aborted"
	case 4:
		return "succeeded"
	default:
		return "not_started"
	}
}

// foreachSortGroup orders failed and aborted items first, then running
// ones, then the rest.
func foreachSortGroup(status int) int {
	switch foreachBucket(status) {
	case "failed", "aborted":
		return 0
	case "running":
		return 1
	default:
		return 2
	}
}
