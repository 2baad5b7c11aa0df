// SPDX-License-Identifier: Apache-2.0

// Package membudget is the gateway's one memory budget for everything in
// flight: request bodies being read and parsed, answers being built and
// written, Dagu's answers being read. Each of them reserves its bytes
// before it allocates them and gives them back when it is done; a
// reservation that does not fit waits at most ShareWait (the caller
// holding the least served first) and is then refused, so the caller can
// answer "busy, retry after" instead of growing the heap.
//
// Dagu's answers being read have a limit of their own as well
// (--upstream-body-budget, kept by the REST client): what they take counts
// against both, so they cannot take all of the budget.
//
// It imports no gateway package: the front door, the read tool and the
// REST client share it through a request's context and the reservations
// cmd/gateway hands them.
package membudget
