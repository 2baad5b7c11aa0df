// SPDX-License-Identifier: Apache-2.0

// Package cache is a typed, bounded, expiring LRU cache with load
// de-duplication.
//
// A Cache holds at most Options.MaxEntries values and, when Options.MaxBytes
// is set, at most that many bytes as measured by Options.SizeOf. Every value
// expires Options.TTL after it was stored. GetOrLoad runs one load for all
// concurrent misses of the same key; a caller that stops waiting (its context
// ends) does not cancel the load the other callers share. GetOrLoadStale
// also serves a value up to Options.StaleFor past its expiry at once while
// one background load refreshes it (stale-while-revalidate).
//
// Keys are the caller's business. The cache never inspects them, so anything
// that changes what a value may be shown to must be part of the key: callers
// that read from Dagu on behalf of a credential put that credential's
// fingerprint into every key, so one caller can never be served a value
// another credential loaded.
//
// Values may be stored for an owner (AddFor): a caller of the cache's
// users. Each owner then has a fair part of the bounds, and one owner
// filling the cache drops its own values first, never those of an owner
// within its part (see shelves.go); Add stores for the owner "".
//
// Values are shared between every caller that receives them and must be
// treated as immutable. Errors are never cached.
//
// Flights is the coalescing half alone: concurrent callers of one key share
// one load and nothing is stored. ApproxSize estimates the memory a value
// of plain data holds, for Options.SizeOf; Peek, Remove and RemoveIf serve
// callers that invalidate entries they learn are stale.
package cache
