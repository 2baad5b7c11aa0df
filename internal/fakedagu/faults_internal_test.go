// SPDX-License-Identifier: Apache-2.0

package fakedagu

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// A latency fault must end as soon as the client goes away; if it did not,
// this test would wait for an hour and hit the test timeout.
func TestLatencyEndsWhenTheClientLeaves(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r := httptest.NewRequest(http.MethodGet, "/api/v1/dags", nil).WithContext(ctx)
	w := httptest.NewRecorder()
	if !applyFault(w, r, &Fault{Latency: time.Hour, Status: http.StatusTeapot}) {
		t.Fatal("a request whose client left is finished")
	}
	if w.Code != http.StatusOK || w.Body.Len() != 0 {
		t.Errorf("nothing may be written for a client that left: %d %q", w.Code, w.Body.String())
	}
}

func TestLatencyOnlyServesNormally(t *testing.T) {
	t.Parallel()
	r := httptest.NewRequest(http.MethodGet, "/api/v1/dags", nil)
	if applyFault(httptest.NewRecorder(), r, &Fault{Latency: time.Nanosecond}) {
		t.Error("a fault with only latency must let the request through")
	}
}
