// SPDX-License-Identifier: Apache-2.0

package fakedagu

import (
	"fmt"
	"net/url"
	"regexp"
	"strings"
)

var (
	schedulerLogPath = regexp.MustCompile(`^/dag-runs/([^/?]+)/([^/?]+)(?:/(?:sub-dag-runs|children)/([^/?]+))?/log$`)
	stepLogPath      = regexp.MustCompile(`^(/dag-runs/([^/?]+)/([^/?]+)(?:/(?:sub-dag-runs|children)/([^/?]+))?)/steps/([^/?]+)/log\?stream=(stdout|stderr)$`)
)

// recordedLogs are the complete log files the recordings reveal.
type recordedLogs struct {
	steps     map[string][]string // stepLogKey -> lines
	scheduler map[string][]string // run or sub-run ID -> lines
}

func stepLogKey(dagName, step, stream string) string {
	return dagName + "\x00" + step + "\x00" + stream
}

// readRecordedLogs collects every recorded log answer that shows a whole
// file (no window cut anything off).
func readRecordedLogs(src *sources) recordedLogs {
	logs := recordedLogs{steps: map[string][]string{}, scheduler: map[string][]string{}}
	for path, body := range src.recorded {
		o, ok := body.(obj)
		if !ok || !isWholeLog(o) {
			continue
		}
		lines := splitLogContent(getStr(o, "content"))
		if m := schedulerLogPath.FindStringSubmatch(path); m != nil {
			id := m[2]
			if m[3] != "" {
				id = m[3]
			}
			logs.scheduler[unescapeSegment(id)] = lines
			continue
		}
		if m := stepLogPath.FindStringSubmatch(path); m != nil {
			dagName := unescapeSegment(m[2])
			if m[4] != "" {
				// The run part of the path (m[1]) is the recorded sub-run's details route.
				dagName = getStr(getObj(src.optionalBody(m[1]), "dagRunDetails"), "name")
			}
			logs.steps[stepLogKey(dagName, unescapeSegment(m[5]), m[6])] = lines
		}
	}
	return logs
}

func isWholeLog(o obj) bool {
	_, hasContent := o["content"].(string)
	more, _ := o["hasMore"].(bool)
	return hasContent && !more
}

func splitLogContent(content string) []string {
	if content == "" {
		return nil
	}
	return strings.Split(content, "\n")
}

func unescapeSegment(s string) string {
	if u, err := url.PathUnescape(s); err == nil {
		return u
	}
	return s
}

// stepLogsOf decides the log files of each node: a node without a log path
// has no file; otherwise the recorded content, the generated big log, or
// what the step's echo command prints (stderr empty).
func (logs recordedLogs) stepLogsOf(dagName string, nodes arr) map[string]stepLogFiles {
	out := map[string]stepLogFiles{}
	for _, n := range nodes {
		node := mustObj(n, "node")
		name := stepName(node)
		var files stepLogFiles
		if getStr(node, "stdout") != "" {
			files.stdout = logs.stdoutOf(dagName, name, node)
		}
		if getStr(node, "stderr") != "" {
			files.stderr = newLogFile(newStoredLog(logs.steps[stepLogKey(dagName, name, "stderr")]...))
		}
		out[name] = files
	}
	return out
}

func (logs recordedLogs) stdoutOf(dagName, step string, node obj) *logFile {
	if lines, ok := logs.steps[stepLogKey(dagName, step, "stdout")]; ok {
		return newLogFile(newStoredLog(lines...))
	}
	if dagName == "big_log_job" && step == "spew" {
		return bigLogStdout()
	}
	if out, ok := echoOutput(node); ok {
		return newLogFile(newStoredLog(out))
	}
	return newLogFile(storedLog{})
}

// generatedSchedulerLog writes a scheduler log in the recorded format (046)
// for a run whose log was not recorded: start, one line per started step,
// and the end of the run when it has ended.
func generatedSchedulerLog(details obj, attempt string) storedLog {
	started := getStr(details, "startedAt")
	if started == "" {
		return storedLog{}
	}
	params := getStr(details, "params")
	lines := []string{fmt.Sprintf(`time=%s level=INFO msg="DAG run started" attempt-id=%s params=[%s]`, logStamp(started), attempt, params)}
	for _, n := range getArr(details, "nodes") {
		node := mustObj(n, "node")
		if s := getStr(node, "startedAt"); s != "" && s != "-" {
			lines = append(lines, fmt.Sprintf(`time=%s level=INFO msg="Step started" step=%s`, logStamp(s), stepName(node)))
		}
	}
	finished := getStr(details, "finishedAt")
	if finished == "" {
		return newStoredLog(lines...)
	}
	lines = append(lines, fmt.Sprintf(`time=%s level=INFO msg="DAG run finished" status=%s started-at=%s finished-at=%s`,
		logStamp(finished), getStr(details, "statusLabel"), started, finished))
	if failure := firstNodeError(details); getInt(details, "status") == 2 && failure != "" {
		lines = append(lines, fmt.Sprintf(`time=%s level=ERROR msg="Failed to execute dag-run" err=%q`, logStamp(finished), failure))
	}
	return newStoredLog(lines...)
}

// logStamp prints a second-precision time with the milliseconds the
// scheduler log uses.
func logStamp(rfc3339 string) string {
	t := parseRecordedTime(rfc3339)
	if t.IsZero() {
		return rfc3339
	}
	return t.UTC().Format("2006-01-02T15:04:05.000Z07:00")
}

func firstNodeError(details obj) string {
	for _, n := range getArr(details, "nodes") {
		if e := getStr(mustObj(n, "node"), "error"); e != "" {
			return e
		}
	}
	return ""
}
