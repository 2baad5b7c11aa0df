package fakedagu

import (
	"fmt"
	"path"
)

// Log routes. Run and sub-run lookups take plain IDs only ("latest" is not
// resolved here). A step-log request without `stream` reproduces the
// handler panic of the recorded server: 500 with an empty body.

const streamStderr = "stderr"

// handleRunLog serves GET /dag-runs/{name}/{dagRunId}/log.
func (s *Server) handleRunLog(c *call) {
	req, ok := c.windowParams()
	if !ok {
		return
	}
	r := s.runByID(c)
	if r == nil {
		return
	}
	if r.schedulerLog == nil {
		c.notFound("log file not found for dag-run " + r.id)
		return
	}
	c.ok(r.schedulerLog.logBody(req))
}

// handleRunLogDownload serves GET /dag-runs/{name}/{dagRunId}/log/download.
func (s *Server) handleRunLogDownload(c *call) {
	r := s.runByID(c)
	if r == nil {
		return
	}
	if r.schedulerLog == nil {
		c.notFound("log file not found for dag-run " + r.id)
		return
	}
	writeDownload(c, r.schedulerLog, path.Base(getStr(r.details, "log")))
}

// handleSubRunLog serves GET .../sub-dag-runs/{subDAGRunId}/log.
func (s *Server) handleSubRunLog(c *call) {
	req, ok := c.windowParams()
	if !ok {
		return
	}
	sub := s.subRunByID(c)
	if sub == nil {
		return
	}
	if sub.schedulerLog == nil {
		c.notFound("log file not found for sub dag-run " + sub.id)
		return
	}
	c.ok(sub.schedulerLog.logBody(req))
}

// handleSubRunLogDownload serves GET .../sub-dag-runs/{subDAGRunId}/log/download.
func (s *Server) handleSubRunLogDownload(c *call) {
	sub := s.subRunByID(c)
	if sub == nil {
		return
	}
	if sub.schedulerLog == nil {
		c.notFound("log file not found for sub dag-run " + sub.id)
		return
	}
	writeDownload(c, sub.schedulerLog, path.Base(getStr(sub.details, "log")))
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
		c.notFound(fmt.Sprintf("step %s not found in DAG %s", step, r.name))
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
	if file == nil {
		c.notFound("log file not found for step " + step)
		return
	}
	if download {
		writeDownload(c, file, path.Base(getStr(node, pathKey)))
		return
	}
	c.ok(file.logBody(req))
}
