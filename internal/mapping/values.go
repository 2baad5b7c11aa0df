// SPDX-License-Identifier: Apache-2.0

package mapping

import (
	"encoding/json"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
)

// str dereferences an optional string; absent is "".
func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// num dereferences an optional integer; absent is 0.
func num(p *int) int {
	if p == nil {
		return 0
	}
	return *p
}

// boolOf dereferences an optional boolean; absent is false.
func boolOf(p *bool) bool {
	return p != nil && *p
}

// runLabel is the contract's label of a run status number. Dagu 1.x sent
// other words for the same numbers ("finished", "not started"), so the
// number decides; Dagu's own label is kept only for a number the contract
// does not know (or filled with "unknown" when absent).
func runLabel(status int, label string) string {
	return knownLabel(model.RunStatusLabel(status), label)
}

// nodeLabel is the contract's label of a step status number (see runLabel).
func nodeLabel(status int, label string) string {
	return knownLabel(model.NodeStatusLabel(status), label)
}

func knownLabel(contract, dagu string) string {
	if contract != "unknown" || dagu == "" {
		return contract
	}
	return dagu
}

// labelsOr returns labels, or the deprecated tags when labels is empty.
// The result shares the input's backing array: the REST value is discarded
// after mapping, so copying would only cost allocations.
func labelsOr(labels, tags []string) []string {
	if len(labels) > 0 {
		return labels
	}
	if len(tags) > 0 {
		return tags
	}
	return nil
}

// nonNil turns a nil string slice into an empty one, for fields the
// contract requires to be an array.
func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// rawJSON re-encodes a free-form object Dagu sent. Numbers keep their text
// exactly when the REST body was decoded with json.Decoder.UseNumber (they
// are json.Number values then); otherwise they round-trip through float64.
// An empty or unencodable object gives nil, which the models omit.
func rawJSON(v map[string]any) json.RawMessage {
	if len(v) == 0 {
		return nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	return b
}
