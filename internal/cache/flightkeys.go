// SPDX-License-Identifier: Apache-2.0

package cache

import (
	"strconv"
	"sync"
)

// flightKeys names each key that has callers waiting on a load with a
// unique string, because singleflight groups by string and printing an
// arbitrary comparable key could make two different keys collide (two
// pointers to equal structs print the same). A name lives while any caller
// holds it and is never reused.
type flightKeys[K comparable] struct {
	mu    sync.Mutex
	next  uint64
	names map[K]*flightName
}

type flightName struct {
	name string
	refs int
}

// acquire returns the flight name of key and holds it until release.
func (f *flightKeys[K]) acquire(key K) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.names == nil {
		f.names = make(map[K]*flightName)
	}
	n, ok := f.names[key]
	if !ok {
		f.next++
		n = &flightName{name: strconv.FormatUint(f.next, 36)}
		f.names[key] = n
	}
	n.refs++
	return n.name
}

// release lets go of one hold on key's flight name.
func (f *flightKeys[K]) release(key K) {
	f.mu.Lock()
	defer f.mu.Unlock()
	n, ok := f.names[key]
	if !ok {
		return
	}
	n.refs--
	if n.refs <= 0 {
		delete(f.names, key)
	}
}

// held reports how many keys have a live flight name (for tests).
func (f *flightKeys[K]) held() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.names)
}
