// SPDX-License-Identifier: Apache-2.0

package fakedagu

import (
	"sort"
	"strings"
	"sync"
	"time"
)

// dataset is the fake server's whole state: DAG files, runs (with their
// logs and foreach records), wiki pages and a few fixed documents. It is
// immutable once built, so one dataset may serve many servers.
type dataset struct {
	dags      []*dagRecord // fileName order
	dagByFile map[string]*dagRecord
	runs      []*runRecord // root runs, newest first
	runByKey  map[runKey]*runRecord
	wiki      *wikiStore // current: /wiki
	docs      *wikiStore // 2.0 and 2.6: /docs
	health    obj
	authMe    obj
}

// runKey addresses a root run.
type runKey struct{ name, id string }

// dagRecord is one DAG file.
type dagRecord struct {
	fileName  string
	name      string
	labels    []string  // lower-cased
	nextRun   time.Time // from the list entry (zero when suspended)
	schedules []string  // cron expressions of the list entry's schedule
	spec      string
	listEntry obj // DAGFile, as GET /dags lists it
	details   obj // GET /dags/{fileName}
	specBody  obj // GET /dags/{fileName}/spec
	extra     bool
}

// runRecord is one DAG-run: a root run or a sub-run.
type runRecord struct {
	name, id     string
	ts           time.Time // the run's timestamp, used for ordering and windows
	status       int
	labels       []string // lower-cased
	details      obj      // DAGRunDetails
	summary      obj      // DAGRunSummary (root runs)
	attemptID    string
	spec         string
	schedulerLog *logFile // nil: no scheduler log file
	stepLogs     map[string]stepLogFiles
	nodes        map[string]obj // step name -> node, handler nodes included
	subRuns      []*runRecord
	subParams    map[string]string         // sub-run ID -> params its parent passed
	foreach      map[string]*foreachRecord // foreach step name -> item records
	root         *runRecord                // for sub-runs
	extra        bool
}

// stepLogFiles are the two log files of a step; nil means the file is absent.
type stepLogFiles struct{ stdout, stderr *logFile }

// subRun finds a sub-run of a root run by ID.
func (r *runRecord) subRun(id string) *runRecord {
	for _, s := range r.subRuns {
		if s.id == id {
			return s
		}
	}
	return nil
}

var (
	plainDatasetsMu sync.Mutex
	plainDatasets   = map[Profile]*dataset{}
)

// datasetFor returns the dataset for a server of a profile: the shared
// unshifted one, or a fresh one whose timestamps are moved so that the
// newest recorded run starts at rebase.
func datasetFor(d *dialect, rebase time.Time) *dataset {
	src := loadSources(d)
	if rebase.IsZero() {
		plainDatasetsMu.Lock()
		defer plainDatasetsMu.Unlock()
		if ds, ok := plainDatasets[d.profile]; ok {
			return ds
		}
		ds := buildDataset(src, d)
		plainDatasets[d.profile] = ds
		return ds
	}
	delta := timeShift(rebase.Sub(newestRecordedRunStart(src)))
	return buildDataset(src.shifted(delta), d)
}

// newestRecordedRunStart is the start of the newest run in the all-time run
// list recording.
func newestRecordedRunStart(src *sources) time.Time {
	var newest time.Time
	for _, s := range getArr(src.body(allRunsRecording), "dagRuns") {
		if t := parseRecordedTime(getStr(mustObj(s, "run"), "startedAt")); t.After(newest) {
			newest = t
		}
	}
	return newest
}

// allRunsRecording is the recorded all-time run list (031 and its
// counterparts).
const allRunsRecording = "/dag-runs?fromDate=0"

func buildDataset(src *sources, d *dialect) *dataset {
	ds := &dataset{
		dagByFile: map[string]*dagRecord{},
		runByKey:  map[runKey]*runRecord{},
		health:    src.body("/health"),
		authMe:    src.optionalBody("/auth/me"),
	}
	ds.runs = buildRuns(src, d)
	for _, r := range ds.runs {
		ds.runByKey[runKey{r.name, r.id}] = r
	}
	ds.dags = buildDAGs(src, ds, d)
	for _, dag := range ds.dags {
		ds.dagByFile[dag.fileName] = dag
	}
	for _, r := range ds.runs {
		if dag := ds.dagByFile[r.name]; dag != nil {
			r.spec = dag.spec
			for _, s := range r.subRuns {
				if child := ds.dagByFile[s.name]; child != nil {
					s.spec = child.spec
				}
			}
		}
	}
	ds.wiki = buildWiki(src.derived["wiki"])
	ds.docs = buildWiki(src.derived["docs"])
	return ds
}

// mergeRuns returns the recorded runs in their recorded (newest first)
// order with the added runs placed by time: a real server's order is not
// always by start time (a retried run keeps its place), so the recorded
// order is kept as it is.
func mergeRuns(recorded, added []*runRecord) []*runRecord {
	sortRunsNewestFirst(added)
	out := make([]*runRecord, 0, len(recorded)+len(added))
	i := 0
	for _, r := range recorded {
		for i < len(added) && runBefore(added[i], r) {
			out = append(out, added[i])
			i++
		}
		out = append(out, r)
	}
	return append(out, added[i:]...)
}

// sortRunsNewestFirst orders runs the way Dagu lists them: newest timestamp
// first, then DAG name, then run ID.
func sortRunsNewestFirst(runs []*runRecord) {
	sort.SliceStable(runs, func(i, j int) bool { return runBefore(runs[i], runs[j]) })
}

func runBefore(a, b *runRecord) bool {
	if !a.ts.Equal(b.ts) {
		return a.ts.After(b.ts)
	}
	if a.name != b.name {
		return a.name < b.name
	}
	return a.id < b.id
}

// runsAfter returns the runs a list continues with after the run a
// cursor names: those following it in list order, or, when it is gone,
// those that sort after it.
func (ds *dataset) runsAfter(after *runRecord) []*runRecord {
	if after == nil {
		return ds.runs
	}
	for i, r := range ds.runs {
		if r.name == after.name && r.id == after.id {
			return ds.runs[i+1:]
		}
	}
	var out []*runRecord
	for _, r := range ds.runs {
		if runBefore(after, r) {
			out = append(out, r)
		}
	}
	return out
}

// latestRun returns the newest root run of a DAG, or nil.
func (ds *dataset) latestRun(name string, visible func(*runRecord) bool) *runRecord {
	for _, r := range ds.runs {
		if r.name == name && visible(r) {
			return r
		}
	}
	return nil
}

// normalizeLabels splits a comma list, trims, lower-cases and de-duplicates.
func normalizeLabels(raw string) []string {
	seen := map[string]bool{}
	var out []string
	for _, part := range strings.Split(raw, ",") {
		l := strings.ToLower(strings.TrimSpace(part))
		if l == "" || seen[l] {
			continue
		}
		seen[l] = true
		out = append(out, l)
	}
	return out
}

func lowerAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = strings.ToLower(s)
	}
	return out
}

// hasAllLabels reports whether have contains every label in want.
func hasAllLabels(have, want []string) bool {
	for _, w := range want {
		found := false
		for _, h := range have {
			if h == w {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}
