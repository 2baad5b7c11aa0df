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
	wiki      *wikiStore
	health    obj
	authMe    obj
}

// runKey addresses a root run.
type runKey struct{ name, id string }

// dagRecord is one DAG file.
type dagRecord struct {
	fileName  string
	name      string
	labels    []string // lower-cased
	nextRun   time.Time
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
	plainDatasetOnce sync.Once
	plainDataset     *dataset
)

// datasetFor returns the dataset for a server: the shared unshifted one, or
// a fresh one whose timestamps are moved so that the newest recorded run
// starts at rebase.
func datasetFor(rebase time.Time) *dataset {
	src := loadSources()
	if rebase.IsZero() {
		plainDatasetOnce.Do(func() { plainDataset = buildDataset(src) })
		return plainDataset
	}
	delta := timeShift(rebase.Sub(newestRecordedRunStart(src)))
	return buildDataset(src.shifted(delta))
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

// allRunsRecording is the recorded all-time run list (031).
const allRunsRecording = "/dag-runs?fromDate=0"

func buildDataset(src *sources) *dataset {
	ds := &dataset{
		dagByFile: map[string]*dagRecord{},
		runByKey:  map[runKey]*runRecord{},
		health:    src.body("/health"),
		authMe:    src.body("/auth/me"),
	}
	ds.runs = buildRuns(src)
	sortRunsNewestFirst(ds.runs)
	for _, r := range ds.runs {
		ds.runByKey[runKey{r.name, r.id}] = r
	}
	ds.dags = buildDAGs(src, ds)
	for _, d := range ds.dags {
		ds.dagByFile[d.fileName] = d
	}
	for _, r := range ds.runs {
		if d := ds.dagByFile[r.name]; d != nil {
			r.spec = d.spec
			for _, s := range r.subRuns {
				if child := ds.dagByFile[s.name]; child != nil {
					s.spec = child.spec
				}
			}
		}
	}
	ds.wiki = buildWiki(src)
	return ds
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
