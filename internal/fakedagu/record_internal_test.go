// SPDX-License-Identifier: Apache-2.0

package fakedagu

import (
	"net/http/httptest"
	"strconv"
	"testing"
)

// TestRequestLogIsBounded: however many requests arrive, the log keeps at
// most maxLoggedRequests, the newest last.
func TestRequestLogIsBounded(t *testing.T) {
	t.Parallel()
	var l requestLog
	for i := range 3 * maxLoggedRequests {
		l.add(httptest.NewRequest("GET", "/api/v1/dags?i="+strconv.Itoa(i), nil))
	}
	got := l.snapshot()
	if len(got) > maxLoggedRequests || got[len(got)-1].RawQuery != "i="+strconv.Itoa(3*maxLoggedRequests-1) {
		t.Fatalf("%d entries, last %q", len(got), got[len(got)-1].RawQuery)
	}
}
