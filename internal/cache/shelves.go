// SPDX-License-Identifier: Apache-2.0

package cache

import (
	"github.com/hashicorp/golang-lru/v2/simplelru"
)

// Owners. Every value belongs to the owner that stored it (AddFor; Add
// stores for the owner ""), and each owner's values are kept in their own
// recency order (a shelf). The bounds (MaxEntries, MaxBytes) stay the
// cache's, exact: when a value pushes the cache over one, the values
// dropped come from the owner most over its part of that bound, its least
// recently used first. An owner's part is the bound divided among the
// owners holding values (the one adding counted), and for bytes never less
// than the owner's largest value and a sixteenth of MaxBytes (partSlack):
// room for one big value and the small ones read with it (a run's details
// beside its log window). The largest value is the last of an owner's to
// go while several owners hold values, so it is not pushed out by another
// owner's many small ones, nor by its owner's own small ones. An owner
// within its part never loses
// a value to another owner's Add: when nobody is over its part, the owner
// adding gives up its own. One owner alone has the whole cache, as
// without owners.

// partSlack: a byte part is never less than the owner's largest value
// and 1/partSlack of MaxBytes.
const partSlack = 16

// shelf is one owner's values in recency order, the bytes they hold and
// which of them is the largest.
type shelf[K comparable, V any] struct {
	owner   string
	lru     *simplelru.LRU[K, entry[V]]
	bytes   int64
	big     K
	bigSize int64 // 0: no value
}

// noteBig makes key the shelf's largest value when it is.
func (sh *shelf[K, V]) noteBig(key K, size int64) {
	if sh.bigSize == 0 || size >= sh.bigSize {
		sh.big, sh.bigSize = key, max(size, 1)
	}
}

// findBig finds the largest value again after the largest one went.
func (sh *shelf[K, V]) findBig() {
	sh.bigSize = 0
	for _, k := range sh.lru.Keys() {
		if e, ok := sh.lru.Peek(k); ok {
			sh.noteBig(k, e.size)
		}
	}
}

// evictOldest drops the least recently used value of the shelf; with
// keepBig, other than its largest, which goes only when it is the last.
func (sh *shelf[K, V]) evictOldest(keepBig bool) {
	key, _, ok := sh.lru.GetOldest()
	if !ok {
		return
	}
	if keepBig && sh.bigSize > 0 && key == sh.big && sh.lru.Len() > 1 {
		sh.lru.Get(key) // the largest goes last: it becomes the most recent
		key, _, _ = sh.lru.GetOldest()
	}
	sh.lru.Remove(key)
}

// shelves are a cache's values, by owner. The caller holds the cache's
// lock.
type shelves[K comparable, V any] struct {
	byOwner    map[string]*shelf[K, V]
	ownerOf    map[K]*shelf[K, V]
	maxEntries int
	bytes      int64
}

func newShelves[K comparable, V any](maxEntries int) *shelves[K, V] {
	return &shelves[K, V]{byOwner: map[string]*shelf[K, V]{}, ownerOf: map[K]*shelf[K, V]{}, maxEntries: maxEntries}
}

// len is the number of values held.
func (s *shelves[K, V]) len() int { return len(s.ownerOf) }

// shelfOf returns the owner's shelf, made when the owner holds nothing.
func (s *shelves[K, V]) shelfOf(owner string) *shelf[K, V] {
	if sh, ok := s.byOwner[owner]; ok {
		return sh
	}
	sh := &shelf[K, V]{owner: owner}
	// The cache's entry bound is enforced across shelves (add's callers);
	// a shelf alone never holds more than the whole cache may.
	sh.lru, _ = simplelru.NewLRU(s.maxEntries, func(k K, e entry[V]) { s.removed(sh, k, e) })
	s.byOwner[owner] = sh
	return sh
}

// removed keeps the totals in step with every removal simplelru makes and
// forgets a shelf left empty.
func (s *shelves[K, V]) removed(sh *shelf[K, V], k K, e entry[V]) {
	sh.bytes -= e.size
	s.bytes -= e.size
	delete(s.ownerOf, k)
	if sh.lru.Len() == 0 && s.byOwner[sh.owner] == sh {
		delete(s.byOwner, sh.owner)
		return
	}
	if sh.bigSize > 0 && k == sh.big {
		sh.findBig()
	}
}

// get returns key's entry and makes it its owner's most recently used.
func (s *shelves[K, V]) get(key K) (entry[V], bool) {
	sh, ok := s.ownerOf[key]
	if !ok {
		return entry[V]{}, false
	}
	return sh.lru.Get(key)
}

// peek returns key's entry and leaves the order alone.
func (s *shelves[K, V]) peek(key K) (entry[V], bool) {
	sh, ok := s.ownerOf[key]
	if !ok {
		return entry[V]{}, false
	}
	return sh.lru.Peek(key)
}

// remove drops key's entry, if any.
func (s *shelves[K, V]) remove(key K) {
	if sh, ok := s.ownerOf[key]; ok {
		sh.lru.Remove(key)
	}
}

// add stores e under key for owner as its most recently used, replacing
// any older entry of key (whoever stored it). It does not enforce the
// bounds, but a shelf never holds more entries than the cache may: it
// reports whether that dropped the owner's least recently used entry.
func (s *shelves[K, V]) add(owner string, key K, e entry[V]) (evicted bool) {
	s.remove(key)
	sh := s.shelfOf(owner)
	evicted = sh.lru.Add(key, e)
	sh.bytes += e.size
	s.bytes += e.size
	s.ownerOf[key] = sh
	sh.noteBig(key, e.size)
	return evicted
}

// keys lists every key held.
func (s *shelves[K, V]) keys() []K {
	out := make([]K, 0, len(s.ownerOf))
	for k := range s.ownerOf {
		out = append(out, k)
	}
	return out
}

// purge drops everything.
func (s *shelves[K, V]) purge() {
	s.byOwner, s.ownerOf, s.bytes = map[string]*shelf[K, V]{}, map[K]*shelf[K, V]{}, 0
}

// dropTails drops, from the least recently used end of every shelf, the
// entries gone reports (expired past their stale window).
func (s *shelves[K, V]) dropTails(gone func(entry[V]) bool) {
	for _, sh := range s.byOwner {
		for {
			key, e, ok := sh.lru.GetOldest()
			if !ok || !gone(e) {
				break
			}
			sh.lru.Remove(key)
		}
	}
}

// evictFor drops one least recently used entry to bring the cache back
// within its bounds after adder stored a value (see Owners above): from
// the owner most over its part of the bound that is exceeded (bytes while
// maxBytes is, else entries), the adder on a tie, then the owner whose
// name sorts first; from the adder when nobody is over its part.
func (s *shelves[K, V]) evictFor(adder string, maxBytes int64) {
	n := int64(len(s.byOwner))
	byBytes := maxBytes > 0 && s.bytes > maxBytes
	over := func(sh *shelf[K, V]) int64 {
		if byBytes {
			return sh.bytes - max(maxBytes/n, sh.bigSize+maxBytes/partSlack)
		}
		return int64(sh.lru.Len()) - int64(s.maxEntries)/n
	}
	first := func(a, b *shelf[K, V]) bool {
		return a.owner == adder || (b.owner != adder && a.owner < b.owner)
	}
	var from *shelf[K, V]
	most := int64(0)
	for _, sh := range s.byOwner {
		if o := over(sh); o > 0 && (from == nil || o > most || (o == most && first(sh, from))) {
			from, most = sh, o
		}
	}
	if from == nil {
		from = s.byOwner[adder]
	}
	if from == nil { // not reached: the adder holds the value it just stored
		for _, sh := range s.byOwner {
			from = sh
			break
		}
	}
	// An owner alone keeps plain recency order, as a cache without
	// owners.
	from.evictOldest(byBytes && n > 1)
}
