// SPDX-License-Identifier: Apache-2.0

package fakedagu

import (
	"fmt"
	"net/http"
	"path"
	"slices"
)

// Log routes. Run and sub-run lookups take plain IDs only ("latest" is not
// resolved here). A step-log request without `stream` reproduces the
// handler panic of the recorded server: 500 with an empty body.

const streamStderr = "stderr"

// handleRunLog serves GET /dag-runs/{name}/{dagRunId}/log.
func (s *Server) handleRunLog(c *call) { s.serveSchedulerLog(c, false) }

// handleRunLogDownload serves GET /dag-runs/{name}/{dagRunId}/log/download.
func (s *Server) handleRunLogDownload(c *call) { s.serveSchedulerLogDownload(c, false) }

// handleSubRunLog serves GET .../sub-dag-runs/{subDAGRunId}/log.
func (s *Server) handleSubRunLog(c *call) { s.serveSchedulerLog(c, true) }

// handleSubRunLogDownload serves GET .../sub-dag-runs/{subDAGRunId}/log/download.
func (s *Server) handleSubRunLogDownload(c *call) { s.serveSchedulerLogDownload(c, true) }

func (s *Server) serveSchedulerLog(c *call, sub bool) {
	req, ok := c.windowParams()
	if !ok {
		return
	}
	if r := s.schedulerLogOwner(c, sub); r != nil {
		c.ok(r.schedulerLog.logBody(req))
	}
}

func (s *Server) serveSchedulerLogDownload(c *call, sub bool) {
	if r := s.schedulerLogOwner(c, sub); r != nil {
		writeDownload(c, r.schedulerLog, path.Base(getStr(r.details, "log")))
	}
}

// schedulerLogOwner finds the run (or sub-run) a scheduler-log route names
// and answers itself when the run is missing (404) or its log file is
// (see missingLogFile).
func (s *Server) schedulerLogOwner(c *call, sub bool) *runRecord {
	find, what := s.runByID, "dag-run "
	if sub {
		find, what = s.subRunByID, "sub dag-run "
	}
	r := find(c)
	if r == nil {
		return nil
	}
	if r.schedulerLog == nil || slices.Contains(s.opts.LostSchedulerLogs, r.id) {
		s.missingLogFile(c, "log file not found for "+what+r.id)
		return nil
	}
	return r
}

// handleStepLog serves GET /dag-runs/{name}/{dagRunId}/steps/{stepName}/log.
func (s *Server) handleStepLog(c *call) { s.stepLog(c, s.runByID, false) }

// handleSubStepLog serves the sub-run form of the step log.
func (s *Server) handleSubStepLog(c *call) { s.stepLog(c, s.subRunByID, false) }

// handleStepLogDownload serves .../steps/{stepName}/log/download.
func (s *Server) handleStepLogDownload(c *call) { s.stepLog(c, s.runByID, true) }

// handleSubStepLogDownload serves the sub-run form of the download.
func (s *Server) handleSubStepLogDownload(c *call) { s.stepLog(c, s.subRunByID, true) }

func (s *Server) stepLog(c *call, lookup func(*call) *runRecord, download bool) {
	stream, hasStream, err := c.single("stream")
	if err != nil {
		c.paramError("stream", err)
		return
	}
	var req windowRequest
	if !download {
		var ok bool
		if req, ok = c.windowParams(); !ok {
			return
		}
	}
	r := lookup(c)
	if r == nil {
		return
	}
	step := c.params["stepName"]
	node, found := r.nodes[step]
	if !found {
		dagName := r.name
		if s.dialect.childLookup {
			dagName = c.params["name"] // 1.17 names the DAG of the route
		}
		c.notFound(fmt.Sprintf("step %s not found in DAG %s", step, dagName))
		return
	}
	if !hasStream && !download {
		c.handlerPanic()
		return
	}
	files := r.stepLogs[stepName(node)]
	file, pathKey := files.stdout, "stdout"
	if stream == streamStderr {
		file, pathKey = files.stderr, "stderr"
	}
	if file == bigLogStdout() && s.wideBigLog != nil {
		file = s.wideBigLog
	}
	if file == nil || s.lostStepLog(r.id, step, stream) {
		s.missingLogFile(c, "log file not found for step "+step)
		return
	}
	if download {
		writeDownload(c, file, path.Base(getStr(node, pathKey)))
		return
	}
	c.ok(file.logBody(req))
}

// lostStepLog reports whether Options.LostStepLogs names the stream of a
// step of the run (or sub-run) with that ID; "" is stdout.
func (s *Server) lostStepLog(runID, step, stream string) bool {
	if stream != streamStderr {
		stream = "stdout"
	}
	for _, l := range s.opts.LostStepLogs {
		if l.RunID == runID && l.Step == step && l.Stream == stream {
			return true
		}
	}
	return false
}

// missingLogFile answers a scheduler or step log whose file is missing:
// 404 with the message given, or on 1.x the handler's read error, 500 with
// the body of an unclassified error (dagu-rest-mapping.md, error table).
func (s *Server) missingLogFile(c *call, notFound string) {
	if s.dialect.logReadFails {
		c.fail(http.StatusInternalServerError, codeInternal, unclassifiedError)
		return
	}
	c.notFound(notFound)
}
