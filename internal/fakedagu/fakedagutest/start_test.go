// SPDX-License-Identifier: Apache-2.0

package fakedagutest_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu/fakedagutest"
)

func TestStartServesUnderTheBasePath(t *testing.T) {
	tests := []struct {
		basePath, suffix string
	}{{"", ""}, {"/dagu/", "/dagu"}, {"nested/base", "/nested/base"}}
	for _, tt := range tests {
		t.Run(tt.basePath, func(t *testing.T) {
			s, base := fakedagutest.Start(t, fakedagu.Options{APIKey: fakedagutest.APIKey, BasePath: tt.basePath})
			if !strings.HasPrefix(base, "http://127.0.0.1:") || !strings.HasSuffix(base, tt.suffix) || strings.HasSuffix(base, "/") {
				t.Fatalf("base URL %q", base)
			}
			req, _ := http.NewRequest(http.MethodGet, base+"/api/v1/dags?perPage=1", nil)
			req.Header.Set("Authorization", "Bearer "+fakedagutest.APIKey)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK || len(s.Requests()) != 1 {
				t.Errorf("status %d, %d requests recorded", resp.StatusCode, len(s.Requests()))
			}
		})
	}
}
