// SPDX-License-Identifier: Apache-2.0

package readtool

import (
	"context"
	"fmt"
)

// reader is how a target reads: its query rules, if it takes a query, and
// its handler. The query is validated once, in resolve, into the typed
// struct the handler then receives.
type reader interface {
	// queryKeys lists the query parameters; nil when the target takes none.
	queryKeys() []string
	// queryDocs lists each query parameter's accepted values, for
	// read-tool.md; nil when the target takes no query.
	queryDocs() []string
	// parse validates a raw query into the typed query (nil for a target
	// that takes none).
	parse(target, raw string) (any, *queryProblem)
	// prepare validates the raw query (and reconciles fields with it) and
	// keeps the typed query on the call.
	prepare(c *call, raw string) *Error
	// read performs the read through the handler.
	read(t *Tool, ctx context.Context, c *call) (any, error)
}

// handler reads one target for a validated call.
type handler func(t *Tool, ctx context.Context, c *call) (any, error)

// plain is the reader of a target that takes no query.
func plain(h handler) reader { return plainReader(h) }

type plainReader handler

func (plainReader) queryKeys() []string { return nil }

func (plainReader) queryDocs() []string { return nil }

func (plainReader) parse(target, raw string) (any, *queryProblem) {
	if raw == "" {
		return nil, nil
	}
	return nil, &queryProblem{message: fmt.Sprintf("Target %s does not accept query parameters.", target)}
}

func (r plainReader) prepare(c *call, raw string) *Error {
	if _, problem := r.parse(c.target, raw); problem != nil {
		return queryError(problem, c)
	}
	return nil
}

func (h plainReader) read(t *Tool, ctx context.Context, c *call) (any, error) { return h(t, ctx, c) }

// withQuery is the reader of a target whose query parses into Q; the
// compiler checks that the rules and the handler agree on Q.
func withQuery[Q any](rules *queryRules[Q], h func(t *Tool, ctx context.Context, c *call, q Q) (any, error)) reader {
	return &queryReader[Q]{rules: rules, handle: h}
}

type queryReader[Q any] struct {
	rules  *queryRules[Q]
	handle func(t *Tool, ctx context.Context, c *call, q Q) (any, error)
}

func (r *queryReader[Q]) queryKeys() []string { return r.rules.keys() }

func (r *queryReader[Q]) queryDocs() []string { return r.rules.docs() }

func (r *queryReader[Q]) parse(target, raw string) (any, *queryProblem) {
	q, problem := r.rules.parse(target, raw)
	if problem != nil {
		return nil, problem
	}
	return q, nil
}

func (r *queryReader[Q]) prepare(c *call, raw string) *Error {
	q, problem := r.rules.parse(c.target, raw)
	if problem != nil {
		return queryError(problem, c)
	}
	if r.rules.reconcile != nil {
		if e := r.rules.reconcile(c, &q); e != nil {
			return e
		}
	}
	c.query = q
	return nil
}

// read hands the handler the query prepare kept (the zero Q for a call
// that never went through prepare).
func (r *queryReader[Q]) read(t *Tool, ctx context.Context, c *call) (any, error) {
	q, _ := c.query.(Q)
	return r.handle(t, ctx, c, q)
}

// runRead is the reader of a run read: r's, with a not-found failure of
// the port answered by its explanation (explainRunNotFound,
// runnotfound.go).
func runRead(r reader) reader { return runReader{r} }

type runReader struct{ reader }

func (r runReader) read(t *Tool, ctx context.Context, c *call) (any, error) {
	data, err := r.reader.read(t, ctx, c)
	if err != nil {
		return nil, t.explainRunNotFound(ctx, c, err)
	}
	return data, nil
}
