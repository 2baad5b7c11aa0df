// SPDX-License-Identifier: Apache-2.0

package mapping

import (
	"fmt"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/restclient/gen"
)

// fiftyDAGs is the recorded default page (fixture 003) grown to a full
// page of 50 by repeating its entries under new file names.
func fiftyDAGs(b *testing.B) *gen.DAGListResponse {
	recordedPage := fixture[gen.DAGListResponse](b, "003-dags.json")
	page := &gen.DAGListResponse{Pagination: recordedPage.Pagination, Dags: make([]gen.DAGFile, 50)}
	for i := range page.Dags {
		page.Dags[i] = recordedPage.Dags[i%len(recordedPage.Dags)]
		page.Dags[i].FileName = fmt.Sprintf("%s_%02d", page.Dags[i].FileName, i)
	}
	return page
}

func BenchmarkDAGs(b *testing.B) {
	pages := map[string]*gen.DAGListResponse{
		"recorded-16": fixture[gen.DAGListResponse](b, "003-dags.json"),
		"page-50":     fiftyDAGs(b),
	}
	for _, name := range []string{"recorded-16", "page-50"} {
		page := pages[name]
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = DAGs(page)
			}
		})
	}
}

func BenchmarkRunDetail(b *testing.B) {
	d := &fixture[gen.DAGRunDetailsResponse](b, "038-dag-runs-parent-job-0356UUnJXB5Ffd1qyncWee.json").DagRunDetails
	b.ReportAllocs()
	for b.Loop() {
		_ = RunDetail(d, parentRun)
	}
}
