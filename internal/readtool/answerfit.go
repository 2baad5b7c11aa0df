// SPDX-License-Identifier: Apache-2.0

package readtool

import (
	"context"
	"errors"

	"github.com/dagu-mcp-gateway/gateway/internal/membudget"
	"github.com/dagu-mcp-gateway/gateway/internal/model"
)

// answerMemoryFactor is how many times its encoded size an answer costs
// until it is written: the encoding itself, the envelope written around
// it, the SDK's JSON-RPC message, and the text of a text-only client.
const answerMemoryFactor = 4

// maxFitTries bounds how often a cut log is cut again because its JSON
// encoding (escapes) came out larger than its text.
const maxFitTries = 4

// fitAnswer bounds a read's answer and reserves its memory: the log text
// read is reserved as it is, log text is cut to fit the answer cap
// (fitLogs), data without log text that passes
// it is refused, and the encoded answer is reserved against the request's
// share of the memory budget before the envelope and the SDK's message are
// built around it (refused with retryAfterMs when the budget is spent).
// The data comes back with its encoding, so it is encoded once.
func (t *Tool) fitAnswer(ctx context.Context, c *call, data any) (any, *Error) {
	// The log text read from Dagu is no longer counted as Dagu's body once
	// decoded: it is counted here, for as long as the request lives.
	if err := membudget.From(ctx).GrowWithin(ctx, int64(logTextSize(data))); err != nil {
		return nil, memoryBusy(c, err)
	}
	limit := t.maxAnswerBytes
	budget := limit - answerOverhead
	for range maxFitTries {
		fitted := fitLogs(c, data, budget, limit)
		value, raw, err := encode(fitted)
		if err != nil {
			return nil, classify(err, c)
		}
		if len(raw) <= limit {
			return t.reserveAnswer(ctx, c, encodedData{value: value, raw: raw})
		}
		if !isLogData(data) {
			return nil, answerTooLarge(c, len(raw), limit)
		}
		// Escaped text encodes larger than it is: shrink the text budget
		// by what this try overshot, and a tenth more.
		budget = int(int64(budget) * int64(limit) / int64(len(raw)) * 9 / 10)
	}
	return nil, answerTooLarge(c, limit+1, limit)
}

// reserveAnswer grows the request's reservation by what the answer will
// cost until it is written.
func (t *Tool) reserveAnswer(ctx context.Context, c *call, data encodedData) (any, *Error) {
	if err := membudget.From(ctx).GrowWithin(ctx, int64(answerMemoryFactor*len(data.raw))); err != nil {
		return nil, memoryBusy(c, err)
	}
	return data, nil
}

// logTextSize is the size of the log text a log read holds (0 for other
// data).
func logTextSize(data any) int {
	switch d := data.(type) {
	case *model.StepLog:
		return len(d.StdoutContent) + len(d.StderrContent)
	case *model.RunLogs:
		return len(d.SchedulerLog.Content)
	}
	return 0
}

// isLogData reports whether fitLogs can cut the data.
func isLogData(data any) bool {
	switch data.(type) {
	case *model.StepLog, *model.RunLogs:
		return true
	}
	return false
}

// memoryBusy is the resource_unavailable error of an answer the memory
// budget cannot take now (the caller's share of it, or the budget as a
// whole, after a brief wait): the agent is told when to retry.
func memoryBusy(c *call, cause error) *Error {
	reason := model.ReasonMemoryBusy
	var refusal *membudget.Refusal
	if errors.As(cause, &refusal) && refusal.Share {
		reason = model.ReasonMemoryShare
	}
	return classify(&model.Failure{Kind: model.FailureUnavailable, Reason: reason, RetryAfter: membudget.RetryAfter, Cause: cause}, c)
}

// AnswerReserve is what the answer of a read whose log text is logText
// bytes and whose encoding is the largest allowed (maxAnswer) reserves:
// the read tool's part of the largest read.
func AnswerReserve(logText int64, maxAnswer int) int64 {
	return logText + int64(answerMemoryFactor*maxAnswer)
}

// orDefaultInt is v, or def when v is zero or negative.
func orDefaultInt(v, def int) int {
	if v <= 0 {
		return def
	}
	return v
}
