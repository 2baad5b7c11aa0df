// SPDX-License-Identifier: Apache-2.0

// Package readtool implements the dagu_read MCP tool: input parsing, the two
// addressing modes, dagu:// URIs, query rules, the output envelope and the
// error object of Dagu's spec 021, "MCP Read Tool" (published with Dagu at
// https://github.com/dagucloud/dagu). It reaches Dagu only
// through the Upstream interface.
package readtool

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/logsample"
	"github.com/dagu-mcp-gateway/gateway/internal/reqctx"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/prometheus/client_golang/prometheus"
)

// ToolName is the MCP name of the read tool.
const ToolName = "dagu_read"

// Options configures a Tool.
type Options struct {
	Upstream   Upstream
	References References
	// Workbooks may be nil: the workbook target then answers
	// resource_unavailable.
	Workbooks Workbooks
	Logger    *slog.Logger
	// Registerer receives the tool's Prometheus metrics; nil disables them.
	Registerer prometheus.Registerer
	// CallTimeout bounds one whole read, every upstream call of it
	// included; 0 means no bound beyond the caller's context.
	CallTimeout time.Duration
	// TextContent is TextContentContract (default) or TextContentJSON.
	TextContent string
	// ResourceLinks is ResourceLinksContract (default) or ResourceLinksOmit.
	ResourceLinks string
	// Limiter, when set, admits each caller's reads (--rate-limit).
	Limiter Limiter
	// Concurrency bounds each caller's reads in flight; nil means no
	// limit.
	Concurrency ConcurrencyLimiter
	// DisabledTargets are targets the operator switched off: absent from
	// the tool definition, they answer unsupported_read_target.
	DisabledTargets []string
	// PassthroughCredentials takes each HTTP caller's bearer token as its
	// own Dagu credential for the upstream (--upstream-auth passthrough).
	PassthroughCredentials bool
	// MaxAnswerBytes caps the encoded data of one answer (log text is cut
	// on whole lines to fit, other data over it is refused); 0 means
	// DefaultMaxAnswerBytes.
	MaxAnswerBytes int
	// Lifetimes are how long the gateway keeps each kind of answer: a
	// resources/read answer's ttlMs (zero: nothing may be kept).
	Lifetimes CacheLifetimes
}

// Tool is the dagu_read tool.
type Tool struct {
	up          Upstream
	refs        References
	books       Workbooks
	log         *slog.Logger
	metrics     *metrics
	timeout     time.Duration
	textContent string
	// resourceLinks is ResourceLinksOmit when results leave the
	// resource_link out of their content.
	resourceLinks string
	limiter       Limiter
	concurrency   ConcurrencyLimiter
	disabled      []string
	passthrough   bool
	topics        topicEncodings
	// maxAnswerBytes is Options.MaxAnswerBytes with its default.
	maxAnswerBytes int
	// logSampler bounds the read lines of unverified callers.
	logSampler *logsample.Sampler
	lifetimes  CacheLifetimes
	// definitions are dagu_read's definitions of access rules that leave
	// targets out.
	definitions definitions
}

// New builds the tool.
func New(opts Options) (*Tool, error) {
	if opts.Upstream == nil || opts.References == nil {
		return nil, errors.New("readtool: Upstream and References are required")
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	m, err := newMetrics(opts.Registerer, opts.CallTimeout)
	if err != nil {
		return nil, err
	}
	switch opts.TextContent {
	case "", TextContentContract, TextContentJSON:
	default:
		return nil, fmt.Errorf("readtool: text content %q is not contract or json", opts.TextContent)
	}
	switch opts.ResourceLinks {
	case "", ResourceLinksContract, ResourceLinksOmit:
	default:
		return nil, fmt.Errorf("readtool: resource links %q is not contract or omit", opts.ResourceLinks)
	}
	for _, name := range opts.DisabledTargets {
		if _, ok := targets[name]; !ok {
			return nil, fmt.Errorf("readtool: cannot disable unknown target %q", name)
		}
	}
	return &Tool{up: opts.Upstream, refs: opts.References, books: opts.Workbooks, log: log, metrics: m,
		timeout: opts.CallTimeout, textContent: opts.TextContent, resourceLinks: opts.ResourceLinks, limiter: opts.Limiter, concurrency: opts.Concurrency, disabled: opts.DisabledTargets,
		passthrough: opts.PassthroughCredentials, maxAnswerBytes: orDefaultInt(opts.MaxAnswerBytes, DefaultMaxAnswerBytes),
		logSampler: logsample.New(nil), lifetimes: opts.Lifetimes}, nil
}

// Register adds the tool to an MCP server with a raw input handler, so bad
// input gets the contract's tool errors rather than protocol errors, and
// with it the dagu:// resources. meta is the definition's _meta (the MCP
// App view that renders the tool's results), nil for none; it never
// changes an answer. (The server around it, the view, its prompts and the
// timing of every MCP method are internal/mcpserver's.)
func (t *Tool) Register(s *mcp.Server, meta mcp.Meta) {
	def := definitionWithout(t.disabled)
	def.Meta = meta
	s.AddTool(def, t.Handle)
	t.RegisterResources(s)
	s.AddReceivingMiddleware(t.narrowLists)
}

// Handle is the MCP tool handler.
func (t *Tool) Handle(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var args json.RawMessage
	if req != nil && req.Params != nil {
		args = req.Params.Arguments
		ctx = withRevisionOutput(ctx, req.ProtocolVersion())
	}
	return t.tracedCall(t.withRequestInfo(ctx, methodToolCall), callMeta(req), args), nil
}

// Call runs one read from raw tool arguments and always returns a result:
// failures are tool errors with isError set.
func (t *Tool) Call(ctx context.Context, args json.RawMessage) (res *mcp.CallToolResult) {
	start := time.Now()
	var c *call
	defer func() {
		if p := recover(); p != nil {
			res = errorResult(t.panicked(ctx, p, c))
		}
		t.observe(ctx, c, res, time.Since(start))
	}()
	runCtx, cancel := t.withDeadline(ctx)
	defer cancel()
	c, res = t.run(runCtx, args)
	return res
}

// panicked logs a read that panicked, with its stack, and is the
// internal_error it answers: one read's bug never takes the gateway down.
func (t *Tool) panicked(ctx context.Context, p any, c *call) *Error {
	t.log.ErrorContext(ctx, "dagu_read panicked", "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
	e := internalError()
	decorate(e, c)
	return e
}

func (t *Tool) run(ctx context.Context, args json.RawMessage) (*call, *mcp.CallToolResult) {
	if e := t.admit(ctx); e != nil {
		return nil, errorResult(e)
	}
	release, e := t.acquire(ctx)
	defer release()
	if e != nil {
		return nil, errorResult(e)
	}
	in, perr := parseInput(args)
	if perr != nil {
		return nil, errorResult(perr)
	}
	c, rerr := resolve(in)
	if rerr != nil {
		return nil, errorResult(t.withoutUnavailable(ctx, rerr))
	}
	if e := t.refuseDisabled(c); e != nil {
		return nil, errorResult(e)
	}
	if e := t.refuseForbidden(ctx, c); e != nil {
		return c, errorResult(e)
	}
	if e := t.refuseUnverified(ctx, c); e != nil {
		return c, errorResult(e)
	}
	data, e := t.read(ctx, c)
	if e == nil {
		data, e = t.fitAnswer(ctx, c, data)
	}
	if e != nil {
		return c, errorResult(e)
	}
	res, err := t.successResult(c, data, t.outputFor(ctx))
	if err != nil {
		return c, errorResult(classify(err, c))
	}
	return c, res
}

// withoutUnavailable keeps the targets the operator switched off, and
// those the caller's access rule leaves out, out of an unsupported
// target's suggestions, as they are out of the definition.
func (t *Tool) withoutUnavailable(ctx context.Context, e *Error) *Error {
	unavailable := t.unavailable(ctx)
	if e.Code != CodeUnsupportedReadTarget || len(unavailable) == 0 {
		return e
	}
	var available []string
	for _, name := range targetOrder {
		if !contains(unavailable, name) {
			available = append(available, name)
		}
	}
	return unsupportedTarget(e.Target, available)
}

// refuseDisabled answers a read of a target the operator switched off.
func (t *Tool) refuseDisabled(c *call) *Error {
	if !contains(t.disabled, c.target) {
		return nil
	}
	e := newError(CodeUnsupportedReadTarget, fmt.Sprintf("Target %s is disabled on this gateway.", c.target))
	e.Target = c.target
	if c.mode == targetMode {
		e.Field = fTarget
	} else {
		e.URI, e.Field = c.inputURI, fURI
	}
	return e
}

// read performs a validated call: the one read path of tool calls and
// resource reads.
func (t *Tool) read(ctx context.Context, c *call) (_ any, e *Error) {
	// A port that panics fails this read only, with its target and URI.
	defer func() {
		if p := recover(); p != nil {
			e = t.panicked(ctx, p, c)
		}
	}()
	data, err := c.spec.reader.read(t, ctx, c)
	if err != nil {
		return nil, classifyRead(err, c, t.passthrough)
	}
	return data, nil
}

// withDeadline applies the whole-call timeout.
func (t *Tool) withDeadline(ctx context.Context) (context.Context, context.CancelFunc) {
	if t.timeout > 0 {
		return context.WithTimeout(ctx, t.timeout)
	}
	return ctx, func() {}
}

// observe counts one call and writes its access line: one info line per
// tool call or resource read with the request ID, the caller, the MCP
// method, target, uri, result code, duration and upstream calls, under the
// event names of Dagu's own MCP audit (mcp.tool_call.succeeded, .failed,
// .denied). Causes of errors are logged here and only here; the password
// never reaches the log.
func (t *Tool) observe(ctx context.Context, c *call, res *mcp.CallToolResult, took time.Duration) {
	target, code, how, uri := "", "ok", "", ""
	if c != nil {
		target, how, uri = c.target, c.mode.String(), c.uri
	}
	var e *Error
	if res.IsError {
		e, _ = res.StructuredContent.(*Error)
	}
	if e != nil {
		code = string(e.Code)
		if target == "" {
			target = e.Target
		}
		if uri == "" {
			uri = e.URI
		}
	}
	if _, known := targets[target]; !known {
		target = "none"
	}
	info, _ := reqctx.From(ctx)
	t.metrics.observe(target, code, info.Rule, took)
	method := methodOf(ctx)
	level, event := accessEvent(method, e)
	if !t.log.Enabled(ctx, level) {
		return
	}
	ok, dropped := t.logSampler.Admit(alwaysLogged(info.Trust))
	if !ok {
		return
	}
	attrs := []slog.Attr{
		slog.String("event", event), slog.String("request_id", info.RequestID), slog.String("caller", info.Caller),
		slog.String("method", method), slog.String("target", target), slog.String("mode", how),
		slog.String("uri", uri), slog.String("code", code), slog.Float64("duration_ms", durationMS(took)),
		slog.Int64("upstream_calls", info.UpstreamCalls()),
	}
	attrs = append(attrs, personAttrs(info)...)
	if c != nil && c.target == tWorkbook {
		attrs = append(attrs, slog.String("workbook_path", c.in.get(fPath)))
	}
	if e != nil {
		attrs = append(attrs, slog.String("message", e.Message), slog.String("cause", causeText(e)))
	}
	if dropped > 0 {
		attrs = append(attrs, slog.Int64("unverified_lines_dropped", dropped))
	}
	t.log.LogAttrs(ctx, level, event, attrs...)
}

// personAttrs name who signed in and the access rule that admitted them
// (sub, email when the token has one, rule); none for other callers.
func personAttrs(info reqctx.Info) []slog.Attr {
	if info.Person == nil {
		return nil
	}
	attrs := []slog.Attr{slog.String("sub", info.Person.Subject)}
	if info.Person.Email != "" {
		attrs = append(attrs, slog.String("email", info.Person.Email))
	}
	return append(attrs, slog.String("rule", info.Rule))
}

// alwaysLogged reports whether a read line of a caller with trust is
// written whatever the rate: a verified caller's, or one without a trust
// decision (stdio). Refused and unchecked callers' lines are sampled, as
// the front door's access lines of such requests are.
func alwaysLogged(trust reqctx.Trust) bool {
	return trust == "" || trust == reqctx.TrustVerified
}

// accessEvent names the outcome as Dagu's MCP audit does (mcp.tool_call.*
// for a tool call, mcp.resource_read.* for a resource read): refused
// credentials are denied, internal errors are logged as errors.
func accessEvent(method string, e *Error) (slog.Level, string) {
	prefix := "mcp.tool_call."
	if method == methodResourceRead {
		prefix = "mcp.resource_read."
	}
	switch {
	case e == nil:
		return slog.LevelInfo, prefix + "succeeded"
	case e.Code == CodeUnauthenticated || e.Code == CodeUnauthorized:
		return slog.LevelWarn, prefix + "denied"
	case e.Code == CodeInternalError:
		return slog.LevelError, prefix + "failed"
	}
	return slog.LevelInfo, prefix + "failed"
}

// durationMS is a duration in milliseconds with microsecond precision, the
// access log's duration_ms.
func durationMS(d time.Duration) float64 {
	return float64(d.Microseconds()) / 1000
}

func causeText(e *Error) string {
	if e.cause == nil {
		return ""
	}
	return e.cause.Error()
}
