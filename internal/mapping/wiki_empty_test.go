// SPDX-License-Identifier: Apache-2.0

package mapping

import (
	"encoding/json"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/restclient/gen"
)

// TestEmptyWikiKeepsItsModeList: Dagu omits an empty list, the contract
// still wants data.tree (tree mode) or data.items (flat mode).
func TestEmptyWikiKeepsItsModeList(t *testing.T) {
	t.Parallel()
	for flat, want := range map[bool]string{
		false: `{"pagination":{"totalRecords":0,"currentPage":1,"totalPages":1,"nextPage":1,"prevPage":1},"tree":[]}`,
		true:  `{"pagination":{"totalRecords":0,"currentPage":1,"totalPages":1,"nextPage":1,"prevPage":1},"items":[]}`,
	} {
		resp := &gen.WikiPageListResponse{Pagination: gen.Pagination{CurrentPage: 1, TotalPages: 1, NextPage: 1, PrevPage: 1}}
		got, _ := json.Marshal(WikiCollection(resp, "all", flat))
		if string(got) != want {
			t.Fatalf("flat=%v: %s", flat, got)
		}
	}
}
