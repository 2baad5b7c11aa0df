// SPDX-License-Identifier: Apache-2.0

package mapping

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
)

// Aggregate is the summary an older Dagu's foreach step writes to its
// stdout, as one line of JSON, once every item has finished: one entry per
// item, ordered by index.
type Aggregate struct {
	Items []AggregateEntry
}

// AggregateEntry is one item of an Aggregate.
type AggregateEntry struct {
	Index int
	// Key is the item's key: the step's declared key, else the decimal
	// index.
	Key string
	// Status is the item's step status number (see aggregateStatuses).
	Status int
	Error  string
}

// aggregateStatuses maps the status strings of the aggregate to step
// status numbers.
var aggregateStatuses = map[string]int{
	bucketNotStarted: nodeNotStarted,
	bucketRunning:    nodeRunning,
	bucketFailed:     nodeFailed,
	bucketAborted:    nodeAborted,
	bucketSucceeded:  nodeSucceeded,
}

// aggregateWire is the aggregate as written; pointers tell absent from zero.
type aggregateWire struct {
	Summary *struct {
		Total *int `json:"total"`
	} `json:"summary"`
	Items *[]aggregateWireItem `json:"items"`
}

type aggregateWireItem struct {
	Index  *int    `json:"index"`
	Key    *string `json:"key"`
	Status *string `json:"status"`
	Error  string  `json:"error"`
}

// ParseForeachAggregate reads the aggregate line of a finished foreach
// step's stdout. Whitespace around it (a trailing newline) and fields it
// does not use are fine. Anything else is an error: another kind of output,
// trailing data, a missing summary total or items array, a total that
// disagrees with the items, an item without an index or status, an unknown
// status, or indexes that are not exactly 0..n-1.
func ParseForeachAggregate(data []byte) (Aggregate, error) {
	var wire aggregateWire
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&wire); err != nil {
		return Aggregate{}, fmt.Errorf("foreach aggregate: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return Aggregate{}, errors.New("foreach aggregate: data after the JSON object")
	}
	if wire.Summary == nil || wire.Summary.Total == nil || wire.Items == nil {
		return Aggregate{}, errors.New("foreach aggregate: summary.total or items missing")
	}
	wireItems := *wire.Items
	if *wire.Summary.Total != len(wireItems) {
		return Aggregate{}, fmt.Errorf("foreach aggregate: total %d but %d items", *wire.Summary.Total, len(wireItems))
	}
	items := make([]AggregateEntry, len(wireItems))
	seen := make([]bool, len(wireItems))
	for i := range wireItems {
		it, err := aggregateItem(&wireItems[i], len(wireItems))
		if err != nil {
			return Aggregate{}, fmt.Errorf("foreach aggregate: item %d: %w", i, err)
		}
		if seen[it.Index] {
			return Aggregate{}, fmt.Errorf("foreach aggregate: item %d: index %d repeated", i, it.Index)
		}
		seen[it.Index] = true
		items[it.Index] = it
	}
	return Aggregate{Items: items}, nil
}

// aggregateItem checks and converts one item of an aggregate with n items.
func aggregateItem(w *aggregateWireItem, n int) (AggregateEntry, error) {
	if w.Index == nil || w.Status == nil {
		return AggregateEntry{}, errors.New("index or status missing")
	}
	if *w.Index < 0 || *w.Index >= n {
		return AggregateEntry{}, fmt.Errorf("index %d out of range", *w.Index)
	}
	status, ok := aggregateStatuses[*w.Status]
	if !ok {
		return AggregateEntry{}, fmt.Errorf("unknown status %q", *w.Status)
	}
	key := itemPath(*w.Index)
	if w.Key != nil {
		key = *w.Key
	}
	return AggregateEntry{Index: *w.Index, Key: key, Status: status, Error: w.Error}, nil
}

// AggregateItems lists the items of an aggregate the way the newer route
// does, but in memory: counts over every item, then the status filter of
// q (a bucket name; an unknown one matches nothing), then failed and
// aborted first, running next, the rest last, index order inside each
// group, then the page (defaults 1 and 50). Aggregates hold top-level items
// only, so q.Parent must be empty: the caller answers nested lists from
// elsewhere. Items carry no times: the aggregate does not record them.
func AggregateItems(agg Aggregate, addr RunAddressForURIs, stepName string, q model.ForeachQuery) model.ForeachItems {
	page, perPage := pageOf(q)
	out := model.ForeachItems{Total: len(agg.Items), Page: page, PerPage: perPage, Source: sourceAggregate}
	selected := make([]*AggregateEntry, 0, len(agg.Items))
	for i := range agg.Items {
		it := &agg.Items[i]
		count(&out.Counts, it.Status)
		if q.Status == "" || bucketOf(it.Status) == q.Status {
			selected = append(selected, it)
		}
	}
	slices.SortStableFunc(selected, func(a, b *AggregateEntry) int {
		return sortGroup(a.Status) - sortGroup(b.Status)
	})
	from := min((page-1)*perPage, len(selected))
	to := min(from+perPage, len(selected))
	out.HasMore = to < len(selected)
	out.Items = make([]model.ForeachItemSummary, 0, to-from)
	for _, it := range selected[from:to] {
		out.Items = append(out.Items, aggregateSummary(it, addr, stepName))
	}
	return out
}

// AggregateItem finds one item of an aggregate by its item path, which
// for the top-level items an aggregate holds is the decimal index ("0",
// "12"; no sign, no leading zeros). ok is false when no item has that path.
// Body steps are not recorded, so Steps is empty and StepsAvailable false.
func AggregateItem(agg Aggregate, addr RunAddressForURIs, stepName, path string) (item model.ForeachItem, ok bool) {
	index, err := strconv.Atoi(path)
	if err != nil || index < 0 || index >= len(agg.Items) || itemPath(index) != path {
		return model.ForeachItem{}, false
	}
	return model.ForeachItem{
		ForeachItemSummary: aggregateSummary(&agg.Items[index], addr, stepName),
		Steps:              []model.ForeachBodyStep{},
		StepsAvailable:     false,
		Source:             sourceAggregate,
	}, true
}

func aggregateSummary(it *AggregateEntry, addr RunAddressForURIs, stepName string) model.ForeachItemSummary {
	path := itemPath(it.Index)
	return model.ForeachItemSummary{
		Item:        path,
		Index:       it.Index,
		Key:         it.Key,
		Status:      it.Status,
		StatusLabel: model.NodeStatusLabel(it.Status),
		Error:       it.Error,
		URI:         model.ForeachItemURI(addr.RootName, addr.RootID, addr.SubRunID, stepName, path),
	}
}
