// SPDX-License-Identifier: Apache-2.0

package fakedagu_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
)

const spewLog = "/dag-runs/big_log_job/0356UUo2lMk0yUwBDR9c0n/steps/spew/log"

func bigLogLines(from, to int) string {
	var b strings.Builder
	for i := from; i <= to; i++ {
		if i > from {
			b.WriteByte('\n')
		}
		b.WriteString("line ")
		b.WriteString(itoa(i))
		b.WriteString(" of the big log")
	}
	return b.String()
}

func itoa(i int) string {
	const digits = "0123456789"
	if i < 10 {
		return digits[i : i+1]
	}
	return itoa(i/10) + digits[i%10:i%10+1]
}

func TestStepLogWindows(t *testing.T) {
	t.Parallel()
	a := startAPI(t, nil)
	tests := []struct {
		name, query          string
		first, last, count   int // expected lines [first, last]; count 0 = empty content
		hasMore, hasEstimate bool
	}{
		{"tail wins over head and offset", "tail=2&head=5&offset=10", 19999, 20000, 2, true, true},
		{"head wins over offset", "head=2&offset=10&limit=1", 1, 2, 2, true, true},
		{"offset with default limit; the estimate claims more", "offset=19500", 19500, 20000, 501, true, true},
		{"offset and limit", "offset=7&limit=2", 7, 8, 2, true, true},
		{"limit alone reads from line 1", "limit=4", 1, 4, 4, true, true},
		{"nothing reads the first 1000", "", 1, 1000, 1000, true, true},
		{"zero and negative fall through", "tail=0&head=-1&limit=-5", 1, 1000, 1000, true, true},
		{"offset past the real end but inside the estimate", "offset=20500", 0, 0, 0, true, true},
		{"offset past the estimate", "offset=21001", 0, 0, 0, false, true},
		{"tail longer than the file still claims more", "tail=20000", 1, 20000, 20000, true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body := a.get(t, spewLog+"?stream=stdout&"+tt.query).object(t)
			want := ""
			if tt.count > 0 {
				want = bigLogLines(tt.first, tt.last)
			}
			if body["content"] != want {
				t.Errorf("content starts %.60q, want %.60q", body["content"], want)
			}
			if number(body, "lineCount") != tt.count || body["hasMore"] == nil == tt.hasMore {
				t.Errorf("lineCount %v hasMore %v, want %d %v", body["lineCount"], body["hasMore"], tt.count, tt.hasMore)
			}
			if number(body, "totalLines") != 21000 || (body["isEstimate"] == true) != tt.hasEstimate {
				t.Errorf("totalLines %v isEstimate %v", body["totalLines"], body["isEstimate"])
			}
		})
	}
}

func TestSmallLogsAndErrors(t *testing.T) {
	t.Parallel()
	a := startAPI(t, nil)
	const failing = "/dag-runs/failing_job/0356UUn8VwcWFuh5L8qwbp"
	tests := []struct {
		name, path string
		status     int
		body       string
	}{
		{"exact count and hasMore for a small file", failing + "/log?tail=2", http.StatusOK, ""},
		{"empty file answers only content", "/dag-runs/parent_job/0356UUnJXB5Ffd1qyncWee/steps/run_child/log?stream=stdout", http.StatusOK, `{"content":""}` + "\n"},
		{"empty stderr", failing + "/steps/prepare/log?stream=stderr", http.StatusOK, `{"content":""}` + "\n"},
		{"echo output", failing + "/steps/prepare/log?stream=stdout", http.StatusOK, `{"content":"preparing","lineCount":1,"totalLines":1}` + "\n"},
		{"missing stream panics the handler", failing + "/steps/explode/log", http.StatusInternalServerError, ""},
		{"unknown stream value reads stdout", failing + "/steps/explode/log?stream=both", http.StatusOK, `{"content":"about to fail","lineCount":1,"totalLines":1}` + "\n"},
		{"missing run before the panic", "/dag-runs/failing_job/nope/steps/explode/log", http.StatusNotFound, ""},
		{"bad window type", failing + "/log?tail=last", http.StatusBadRequest, "Invalid format for parameter tail: error binding string parameter: strconv.ParseInt: parsing \"last\": invalid syntax\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ans := a.get(t, tt.path)
			if ans.status != tt.status {
				t.Fatalf("status %d, want %d: %s", ans.status, tt.status, ans.body)
			}
			if tt.body != "" && string(ans.body) != tt.body {
				t.Errorf("body %q, want %q", ans.body, tt.body)
			}
		})
	}
	tail := a.get(t, failing+"/log?tail=2").object(t)
	if number(tail, "lineCount") != 2 || number(tail, "totalLines") != 5 || tail["hasMore"] != true || tail["isEstimate"] != nil {
		t.Errorf("small file tail: %v", tail)
	}
	if panicked := a.get(t, failing+"/steps/explode/log"); len(panicked.body) != 0 || panicked.contentType != "" {
		t.Errorf("the recoverer writes no body: %q %q", panicked.contentType, panicked.body)
	}
}

func TestLogDownloads(t *testing.T) {
	t.Parallel()
	a := startAPI(t, nil)
	big := a.get(t, spewLog+"/download")
	if big.status != http.StatusOK || big.contentType != "text/plain; charset=utf-8" {
		t.Fatalf("download: %d %q", big.status, big.contentType)
	}
	if want := bigLogLines(1, 20000) + "\n"; string(big.body) != want {
		t.Errorf("download is %d bytes, want %d", len(big.body), len(want))
	}
	if !strings.Contains(big.header.Get("Content-Disposition"), "spew.20261130.093020.193.0356UUo2.out") {
		t.Errorf("Content-Disposition %q", big.header.Get("Content-Disposition"))
	}
	tests := []struct{ path, want string }{
		{spewLog + "/download?stream=stderr", "warn: last\n"},
		{"/dag-runs/foreach_job/0356UUnVEGj0qj7EkXG3Be/steps/each/log/download", `{"summary":{"total":3,"succeeded":2,"failed":1},"items":[{"index":0,"key":"0","status":"succeeded"},{"index":1,"key":"1","status":"failed","error":"exit status 1\nrecent stderr (tail):\nbeta broke\n"},{"index":2,"key":"2","status":"succeeded"}],"outputs":[{},{}]}` + "\n"},
		{"/dag-runs/parent_job/0356UUnJXB5Ffd1qyncWee/steps/run_child/log/download", ""},
	}
	for _, tt := range tests {
		if got := a.get(t, tt.path); got.status != http.StatusOK || string(got.body) != tt.want {
			t.Errorf("%s: %d %q, want %q", tt.path, got.status, got.body, tt.want)
		}
	}
	sched := a.get(t, "/dag-runs/failing_job/0356UUn8VwcWFuh5L8qwbp/log/download")
	if lines := strings.Count(string(sched.body), "\n"); sched.status != http.StatusOK || lines != 5 {
		t.Errorf("scheduler log download: %d, %d lines", sched.status, lines)
	}
}

// lostLogRuns are the recorded parent_job run and its child_job sub-run per
// release, with the answer each release gives for a log file it lost.
var lostLogRuns = []struct {
	profile   fakedagu.Profile
	root, sub string
	subPath   string
	status    int
	code      string
}{
	{fakedagu.ProfileCurrent, "0356UUnJXB5Ffd1qyncWee", "91BtJYkQW1SsskLaa43ZUyKwazXZNeYsWuDL4EC3BKCg", "sub-dag-runs", http.StatusNotFound, "not_found"},
	{fakedagu.Profile129, "01a233ce-5a75-7538-b246-c88e6a8a1f75", "7pVtb2cbsb6D63TeGNqjUiDEVSAmYLPZ5M1ouTRDFGG", "sub-dag-runs", http.StatusInternalServerError, "internal_error"},
	{fakedagu.Profile117, "01a233ce-e7be-7c42-900f-766080039ee9", "JAQe48QK738cpsBePzgDMNzaQj4WjS8yRiTm6wWK4brQ", "children", http.StatusInternalServerError, "internal_error"},
}

// TestLostStepLogs: a step log file the server lost is answered as each
// release's handler answers a file it cannot read: 404 on 2.0 and later,
// 500 with the unclassified error body on 1.x (its handlers return the
// read error), for root runs and sub-runs alike; the other stream still
// reads.
func TestLostStepLogs(t *testing.T) {
	t.Parallel()
	for _, r := range lostLogRuns {
		t.Run(string(r.profile), func(t *testing.T) {
			t.Parallel()
			a := startAPI(t, func(o *fakedagu.Options) {
				o.Profile = r.profile
				o.LostStepLogs = []fakedagu.LostStepLog{{RunID: r.sub, Step: "child_start", Stream: "stdout"}, {RunID: r.root, Step: "prepare", Stream: "stderr"}}
			})
			a.url = strings.TrimSuffix(a.url, "/api/v1") + a.server.APIPrefix()
			sub := "/dag-runs/parent_job/" + r.root + "/" + r.subPath + "/" + r.sub + "/steps/child_start/log?stream="
			root := "/dag-runs/parent_job/" + r.root + "/steps/prepare/log?stream="
			for _, lost := range []string{sub + "stdout", root + "stderr"} {
				ans := a.get(t, lost)
				if ans.status != r.status || ans.object(t)["code"] != r.code {
					t.Errorf("%s: %d %s, want %d %s", lost, ans.status, ans.body, r.status, r.code)
				}
			}
			for _, kept := range []string{sub + "stderr", root + "stdout"} {
				if ans := a.get(t, kept); ans.status != http.StatusOK {
					t.Errorf("%s: %d %s", kept, ans.status, ans.body)
				}
			}
		})
	}
}

// TestLostSchedulerLogs: a scheduler log file the server lost is answered
// as each release's handler answers a file it cannot read (404 on 2.0 and
// later, 500 with the unclassified error body on 1.x), for a root run and
// for a sub-run; the other run's scheduler log still reads.
func TestLostSchedulerLogs(t *testing.T) {
	t.Parallel()
	for _, r := range lostLogRuns {
		root := "/dag-runs/parent_job/" + r.root + "/log?tail=5"
		sub := "/dag-runs/parent_job/" + r.root + "/" + r.subPath + "/" + r.sub + "/log?tail=5"
		for _, c := range []struct{ lostID, lost, kept string }{{r.root, root, sub}, {r.sub, sub, root}} {
			t.Run(string(r.profile)+" "+c.lost, func(t *testing.T) {
				t.Parallel()
				a := startAPI(t, func(o *fakedagu.Options) {
					o.Profile = r.profile
					o.LostSchedulerLogs = []string{c.lostID}
				})
				a.url = strings.TrimSuffix(a.url, "/api/v1") + a.server.APIPrefix()
				if ans := a.get(t, c.lost); ans.status != r.status || ans.object(t)["code"] != r.code {
					t.Errorf("lost %s: %d %s, want %d %s", c.lost, ans.status, ans.body, r.status, r.code)
				}
				// The current release keeps no scheduler log for sub-runs.
				if r.profile == fakedagu.ProfileCurrent && c.kept == sub {
					return
				}
				if ans := a.get(t, c.kept); ans.status != http.StatusOK {
					t.Errorf("kept %s: %d %s", c.kept, ans.status, ans.body)
				}
			})
		}
	}
}

// TestWideBigLog: BigLogLineWidth pads every line of the big log, which
// keeps its 20,000 lines and the windows of the recorded server.
func TestWideBigLog(t *testing.T) {
	t.Parallel()
	a := startAPI(t, func(o *fakedagu.Options) { o.BigLogLineWidth = 2000 })
	body := a.get(t, spewLog+"?stream=stdout&tail=3").object(t)
	lines := strings.Split(body["content"].(string), "\n")
	if len(lines) != 3 || body["lineCount"] != float64(3) || body["hasMore"] != true {
		t.Fatalf("tail=3 answered %d lines: lineCount %v hasMore %v", len(lines), body["lineCount"], body["hasMore"])
	}
	for i, line := range lines {
		if len(line) != 2000 || !strings.HasPrefix(line, "line "+itoa(19998+i)+" of the big log ") {
			t.Fatalf("line %d is %d characters: %.60q", i, len(line), line)
		}
	}
}
