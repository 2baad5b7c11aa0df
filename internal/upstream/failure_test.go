// SPDX-License-Identifier: Apache-2.0

package upstream

import (
	"context"
	"errors"
	"net/http"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient"
)

// TestFailureOf: REST errors are translated; the gateway's own errors and
// context errors are passed on as they are (never blamed on Dagu's answer).
func TestFailureOf(t *testing.T) {
	bug := errors.New("a bug of the gateway's own")
	if got := failureOf(bug); got != bug {
		t.Errorf("own error became %v", got)
	}
	if got := failureOf(context.DeadlineExceeded); got != context.DeadlineExceeded {
		t.Errorf("context error became %v", got)
	}
	rest := &restclient.Error{Kind: restclient.KindHTTP, Status: http.StatusNotFound}
	f, ok := model.AsFailure(failureOf(rest))
	if !ok || f.Kind != model.FailureHTTP || f.Status != http.StatusNotFound || !errors.Is(f, rest) {
		t.Errorf("REST 404 became %+v", f)
	}
}
