// SPDX-License-Identifier: Apache-2.0

package upstream

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient/gen"
)

// The DAG list's label filter differs by release: current Dagu and 2.6
// take labels (a comma list, every label required), 2.0 takes tags (the
// same rule), and 1.x takes tag, one value that a DAG matches when one of
// its labels equals it ignoring case (a comma inside it is not a list).
// For several labels on 1.x the gateway sends the first as tag, reads the
// whole filtered list (at most emulatedMaxPages pages) and keeps the DAGs
// that carry the others too, then cuts the caller's page itself.
//
// When more DAGs carry the first label than the gateway reads for one
// answer (emulatedMaxItems), the read fails instead of answering from part
// of the list: the contract's DAG collection has no marker for an
// incomplete list, and a page or totalRecords counted over part of it
// would be wrong without a sign. The failure is resource_unavailable on
// the query's labels parameter, its message saying how to narrow the read
// (a rarer label first, or name); Dagu's own totalRecords of the first
// page tells it after one call.

// Label filter parameters of GET /dags, as dagLabelParam names them.
const (
	labelParamLabels = "labels"
	labelParamTags   = "tags"
	labelParamTag    = "tag"
)

// normalizeLabels reads the caller's labels as Dagu's label filter does:
// trimmed, lower-cased, empty and repeated ones dropped.
func normalizeLabels(labels []string) []string {
	var out []string
	for _, l := range labels {
		l = strings.ToLower(strings.TrimSpace(l))
		if l != "" && !slices.Contains(out, l) {
			out = append(out, l)
		}
	}
	return out
}

// withLabelFilter sets the release's label filter parameter to value.
func withLabelFilter(p gen.ListDAGsParams, param, value string) gen.ListDAGsParams {
	switch param {
	case labelParamTag:
		p.Tag = ptr(value)
	case labelParamTags:
		p.Tags = ptr(value)
	default:
		p.Labels = ptr(value)
	}
	return p
}

// dagListParams is the DAG list query for the release: its label filter
// carries every label, or only the first on a one-label (tag) release;
// rest lists the labels the gateway must still apply (nil when none).
func dagListParams(p gen.ListDAGsParams, labels []string, caps restclient.Capabilities) (sent gen.ListDAGsParams, rest []string) {
	if len(labels) == 0 {
		return p, nil
	}
	param := dagLabelParam(caps)
	if param == labelParamTag {
		return withLabelFilter(p, param, labels[0]), labels[1:]
	}
	return withLabelFilter(p, param, joinLabels(labels)), nil
}

// dagsWithAllLabels answers one page of a DAG list whose labels the
// release could only partly filter: it reads every page of the narrowed
// list (at most emulatedMaxPages of emulatedPageSize DAGs), keeps the DAGs
// carrying every label of rest, and pages them as Dagu pages its list. A
// narrowed list longer than that fails (see labelScanLimit).
func (a *Adapter) dagsWithAllLabels(ctx context.Context, p gen.ListDAGsParams, rest []string) (*gen.DAGListResponse, error) {
	page, perPage := max(derefOr(p.Page, 1), 1), derefOr(p.PerPage, defaultDAGsPerPage)
	p.PerPage = ptr(emulatedPageSize)
	var kept []gen.DAGFile
	var errs []string
	for n := 1; n <= emulatedMaxPages; n++ {
		p.Page = ptr(n)
		resp, err := a.fetchDAGList(ctx, p)
		if err != nil {
			return nil, err
		}
		// A list that grew past the bound while it was read fails too.
		if pg := resp.Pagination; pg.TotalRecords > emulatedMaxItems || n == emulatedMaxPages && pg.TotalPages > n {
			return nil, labelScanLimit(derefOr(p.Tag, ""), pg.TotalRecords)
		}
		if n == 1 {
			errs = resp.Errors
		}
		for _, f := range resp.Dags {
			if carriesAll(f.Dag, rest) {
				kept = append(kept, f)
			}
		}
		if resp.Pagination.TotalPages <= n {
			break
		}
	}
	items, _ := pageOf(kept, (page-1)*perPage, perPage)
	return &gen.DAGListResponse{Dags: items, Errors: errs, Pagination: listPagination(len(kept), page, perPage)}, nil
}

// labelScanLimit is the failure of a several-label DAG list on a
// one-label release when more than emulatedMaxItems DAGs carry the label
// sent (total of them, by Dagu's count).
func labelScanLimit(sent string, total int) *model.Failure {
	return &model.Failure{Kind: model.FailureUnsupported, Field: model.ParamLabels,
		Reason: model.ReasonLabelScanLimit, Args: model.FailureArgs{sent, strconv.Itoa(emulatedMaxItems), strconv.Itoa(total)},
		Cause: fmt.Errorf("dagu %s: %d DAGs carry tag %q, over the scan limit of %d", restclient.RouteDAGs, total, sent, emulatedMaxItems)}
}

// carriesAll reports whether a DAG carries every label of want (given
// lower-cased), ignoring case as Dagu does; older releases list them as
// tags.
func carriesAll(d gen.DAG, want []string) bool {
	have := d.Labels
	if len(have) == 0 {
		have = d.Tags
	}
	for _, w := range want {
		if !slices.ContainsFunc(have, func(h string) bool { return strings.EqualFold(h, w) }) {
			return false
		}
	}
	return true
}

// derefOr is *p, or fallback when p is nil.
func derefOr[T any](p *T, fallback T) T {
	if p == nil {
		return fallback
	}
	return *p
}
