// SPDX-License-Identifier: Apache-2.0

package upstream

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient"
)

// TestFailureOf: the gateway's own errors and context errors are passed on
// as they are (never blamed on Dagu's answer); every fact the REST client
// reports becomes its one failure kind.
func TestFailureOf(t *testing.T) {
	t.Parallel()
	bug := errors.New("a bug of the gateway's own")
	if got := failureOf(bug); got != bug {
		t.Errorf("own error became %v", got)
	}
	if got := failureOf(context.DeadlineExceeded); got != context.DeadlineExceeded {
		t.Errorf("context error became %v", got)
	}
	tests := []struct {
		name string
		rest restclient.Error
		want model.Failure
	}{
		{"error answer", restclient.Error{Status: http.StatusNotFound, Code: "not_found"}, model.Failure{Kind: model.FailureHTTP, Status: http.StatusNotFound}},
		{"surface denied", restclient.Error{Status: http.StatusForbidden, SurfaceDenied: true}, model.Failure{Kind: model.FailureHTTP, Status: http.StatusForbidden, SurfaceDenied: true}},
		{"guard refused", restclient.Error{Refused: true}, model.Failure{Kind: model.FailureInvalidInput}},
		{"key unreadable", restclient.Error{KeyUnreadable: true}, model.Failure{Kind: model.FailureCredentials}},
		{"busy", restclient.Error{Busy: true, RetryAfter: time.Second}, model.Failure{Kind: model.FailureUnavailable, Reason: model.ReasonBusy, RetryAfter: time.Second}},
		{"canceled", restclient.Error{Canceled: true}, model.Failure{Kind: model.FailureCanceled}},
		{"timeout", restclient.Error{Timeout: true}, model.Failure{Kind: model.FailureTimeout}},
		{"tls", restclient.Error{TLS: true}, model.Failure{Kind: model.FailureTLS}},
		{"too large", restclient.Error{BodyLimit: 10}, model.Failure{Kind: model.FailureTooLarge}},
		{"undecodable", restclient.Error{Undecodable: true}, model.Failure{Kind: model.FailureDecode}},
		{"no answer", restclient.Error{Excerpt: "connection reset"}, model.Failure{Kind: model.FailureNetwork}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			rest := tt.rest
			f, ok := model.AsFailure(failureOf(&rest))
			if !ok || !errors.Is(f, &rest) {
				t.Fatalf("failureOf = %v", f)
			}
			got := *f
			got.Cause = nil
			if got != tt.want {
				t.Errorf("failureOf = %+v, want %+v", got, tt.want)
			}
		})
	}
}
