// SPDX-License-Identifier: Apache-2.0

// Package membudget is the gateway's one memory budget for everything in
// flight: request bodies being read and parsed, answers being built and
// written, Dagu's answers being read. Each of them reserves its bytes
// before it allocates them and gives them back when it is done; a
// reservation that does not fit is refused at once, never queued, so the
// caller can answer "busy, retry after" instead of growing the heap.
//
// Parts of the budget have their own limit as well (Dagu's answers being
// read: --upstream-body-budget): what a part takes counts against both its
// own limit and the whole, so one kind of work cannot take all of it.
//
// It imports no gateway package: the front door, the read tool and the
// REST client share it through a request's context and the reservations
// cmd/gateway hands them.
package membudget
