// SPDX-License-Identifier: Apache-2.0

package endpoints

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// TestAfterFirstDetectionHoldsRequestsUntilDetected: a request waits for
// the first detection; once it has ended requests pass at once.
func TestAfterFirstDetectionHoldsRequestsUntilDetected(t *testing.T) {
	t.Parallel()
	detected := make(chan struct{})
	served := make(chan struct{}, 2)
	h := AfterFirstDetection(detected, http.HandlerFunc(func(http.ResponseWriter, *http.Request) { served <- struct{}{} }))
	go h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodPost, "/mcp", nil))
	select {
	case <-served:
		t.Fatal("served before the first detection ended")
	case <-time.After(50 * time.Millisecond):
	}
	close(detected)
	select {
	case <-served:
	case <-time.After(5 * time.Second):
		t.Fatal("not served after the first detection ended")
	}
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodPost, "/mcp", nil))
	if len(served) != 1 {
		t.Fatal("a request after the detection was not served at once")
	}
}
