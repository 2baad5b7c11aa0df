// SPDX-License-Identifier: Apache-2.0

package endpoints

import "net/http"

// AfterFirstDetection holds each request until detected is closed (the
// instance's first capability detection has ended, see
// upstream.Adapter.FirstDetection) or the request is gone, then serves it
// with next. An instance is built and served at once, at start-up and on
// every reload that changes it; before its detection a read would use the
// current release's dialect, which an older Dagu answers wrongly.
func AfterFirstDetection(detected <-chan struct{}, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-detected:
		case <-r.Context().Done():
		}
		next.ServeHTTP(w, r)
	})
}
