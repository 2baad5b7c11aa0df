// SPDX-License-Identifier: Apache-2.0

package mapping

import (
	"strings"
	"unicode/utf8"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient/gen"
)

// Stream names of a step log.
const (
	streamStdout = "stdout"
	streamStderr = "stderr"
)

// LogWindow maps one Log answer. Dagu leaves out zero counts and false
// flags, so absent means 0 or false; nil (no log read) is an empty window.
func LogWindow(l *gen.Log) model.LogWindow {
	if l == nil {
		return model.LogWindow{}
	}
	return model.LogWindow{
		Content:    l.Content,
		LineCount:  num(l.LineCount),
		TotalLines: num(l.TotalLines),
		HasMore:    boolOf(l.HasMore),
		IsEstimate: boolOf(l.IsEstimate),
	}
}

// StepLog joins the one or two streams read for a step log; nil means the
// stream was not read, and its content is "". The counts describe stdout,
// unless only stderr was read; Stream says which.
func StepLog(stdout, stderr *gen.Log) model.StepLog {
	counted, stream := stdout, streamStdout
	if stdout == nil && stderr != nil {
		counted, stream = stderr, streamStderr
	}
	w := LogWindow(counted)
	out := model.StepLog{
		LineCount:  w.LineCount,
		TotalLines: w.TotalLines,
		HasMore:    w.HasMore,
		IsEstimate: w.IsEstimate,
		Stream:     stream,
	}
	if stdout != nil {
		out.StdoutContent = stdout.Content
	}
	if stderr != nil {
		out.StderrContent = stderr.Content
	}
	return out
}

// StreamPresence says which log streams of a step can be read.
type StreamPresence struct {
	Stdout bool
	Stderr bool
}

// StreamsFromPaths approximates each step's stream presence from the run
// details: a stream is present when Dagu recorded a file path for it. Dagu
// does not say whether the file exists; a caller that must know probes the
// step log routes instead. Only the presence leaves this function, never
// the paths.
func StreamsFromPaths(d *gen.DAGRunDetails) map[string]StreamPresence {
	if d == nil {
		return map[string]StreamPresence{}
	}
	out := make(map[string]StreamPresence, len(d.Nodes))
	for i := range d.Nodes {
		n := &d.Nodes[i]
		out[n.Step.Name] = StreamPresence{Stdout: n.Stdout != "", Stderr: n.Stderr != ""}
	}
	return out
}

// RunLogs maps a run's scheduler log and lists its steps' logs in the same
// execution order as RunDetail's steps (handler steps are not listed).
// presence, keyed by step name, is supplied by the caller; a step missing
// from it has neither stream.
func RunLogs(d *gen.DAGRunDetails, scheduler *gen.Log, presence map[string]StreamPresence, addr RunAddressForURIs) model.RunLogs {
	out := model.RunLogs{SchedulerLog: LogWindow(scheduler), StepLogs: []model.StepLogInfo{}}
	if d == nil {
		return out
	}
	out.DAGRunID = d.DagRunId
	out.StepLogs = make([]model.StepLogInfo, len(d.Nodes))
	for i := range d.Nodes {
		n := &d.Nodes[i]
		p := presence[n.Step.Name]
		out.StepLogs[i] = model.StepLogInfo{
			StepName:    n.Step.Name,
			Status:      n.Status,
			StatusLabel: nodeLabel(n.Status, n.StatusLabel),
			HasStdout:   p.Stdout,
			HasStderr:   p.Stderr,
			LogURI:      model.StepLogURI(addr.RootName, addr.RootID, addr.SubRunID, n.Step.Name),
			StartedAt:   Time(n.StartedAt),
			FinishedAt:  Time(n.FinishedAt),
		}
	}
	sortByStart(out.StepLogs, stepLogStart)
	return out
}

// KeepTail returns l cut to its last lines that fit in maxBytes, so a
// default log window stays small enough for an agent however long its
// lines are. A cut window reports the lines it kept and hasMore; an
// uncut one (or maxBytes <= 0) is returned as is. A single line longer
// than maxBytes keeps its last maxBytes bytes.
func KeepTail(l *gen.Log, maxBytes int) *gen.Log {
	if l == nil || maxBytes <= 0 || len(l.Content) <= maxBytes {
		return l
	}
	cut := l.Content[len(l.Content)-maxBytes:]
	if i := strings.IndexByte(cut, '\n'); i >= 0 && i+1 < len(cut) {
		cut = cut[i+1:]
	}
	for len(cut) > 0 && !utf8.RuneStart(cut[0]) {
		cut = cut[1:]
	}
	kept := strings.Count(cut, "\n") + 1
	more := true
	out := *l
	out.Content, out.LineCount, out.HasMore = cut, &kept, &more
	return &out
}
