// SPDX-License-Identifier: Apache-2.0

package frontdoor

import (
	"context"
	"net/http"
	"sync/atomic"
)

// requestNote is what the layers inside the access log learn about a
// request that the access log needs at its end: whether the caller proved
// who it is, and the instance the request was routed to (a name of the
// instances file, so a bounded set).
type requestNote struct {
	verified atomic.Bool
	instance atomic.Pointer[string]
}

type requestNoteKey struct{}

// withRequestNote gives the request a note the inner layers fill.
func withRequestNote(r *http.Request) (*http.Request, *requestNote) {
	note := &requestNote{}
	return r.WithContext(context.WithValue(r.Context(), requestNoteKey{}, note)), note
}

// markVerified records that the request's caller proved who it is.
func markVerified(r *http.Request) {
	if note, ok := r.Context().Value(requestNoteKey{}).(*requestNote); ok {
		note.verified.Store(true)
	}
}

// markInstance records the served instance a request was routed to.
func markInstance(r *http.Request, name string) {
	if note, ok := r.Context().Value(requestNoteKey{}).(*requestNote); ok {
		note.instance.Store(&name)
	}
}
