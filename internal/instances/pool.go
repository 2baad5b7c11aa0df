// SPDX-License-Identifier: Apache-2.0

package instances

import (
	"fmt"
	"sync"
	"sync/atomic"
)

// Pool keeps one live value per instance (cmd/gateway's wired endpoint:
// REST client, adapter, caches, MCP server) and swaps the whole set
// atomically on Apply. A request takes its instance's value with Acquire
// and gives it back with the release function: it finishes on the value it
// started on even when a reload replaces it meanwhile, and a replaced or
// removed value is closed only when its last request is done. Values of
// instances a reload leaves unchanged are kept as they are (their caches
// and outage tracking too).
//
// It is safe for concurrent use; Acquire takes no lock shared between
// instances.
type Pool[T any] struct {
	build func(Instance) (T, error)
	close func(T)

	state atomic.Pointer[poolState[T]]
	apply sync.Mutex // one Apply at a time
}

// poolState is one immutable version of the pool.
type poolState[T any] struct {
	set     Set
	entries map[string]*entry[T]
}

// entry is one instance's value with the requests that hold it.
type entry[T any] struct {
	inst  Instance
	value T

	mu      sync.Mutex
	holders int
	retired bool
	closed  bool
}

// NewPool returns an empty pool that builds a value for each new or changed
// instance with build and releases a retired one with closeValue (nil:
// nothing to release).
func NewPool[T any](build func(Instance) (T, error), closeValue func(T)) *Pool[T] {
	if closeValue == nil {
		closeValue = func(T) {}
	}
	p := &Pool[T]{build: build, close: closeValue}
	p.state.Store(&poolState[T]{entries: map[string]*entry[T]{}})
	return p
}

// Apply makes set the pool's instances: it builds the new and changed ones
// first, and when any build fails it closes what it built and keeps the
// instances in service (the error says which failed). Otherwise it swaps
// the set in and retires the values it replaces.
func (p *Pool[T]) Apply(set Set) error {
	p.apply.Lock()
	defer p.apply.Unlock()
	old := p.state.Load()
	next := &poolState[T]{set: set, entries: make(map[string]*entry[T], len(set.Instances))}
	var built []*entry[T]
	for _, in := range set.Instances {
		if e, ok := old.entries[in.Name]; ok && e.inst == in {
			next.entries[in.Name] = e
			continue
		}
		value, err := p.build(in)
		if err != nil {
			for _, b := range built {
				p.close(b.value)
			}
			return fmt.Errorf("instance %s: %w", in.Name, err)
		}
		e := &entry[T]{inst: in, value: value}
		built = append(built, e)
		next.entries[in.Name] = e
	}
	p.state.Store(next)
	for name, e := range old.entries {
		if next.entries[name] != e {
			p.retire(e)
		}
	}
	return nil
}

// Acquire returns the value of the named instance and the function that
// gives it back (call it once, when the request is done); ok is false for
// a name the pool does not serve.
func (p *Pool[T]) Acquire(name string) (value T, release func(), ok bool) {
	for {
		e, found := p.state.Load().entries[name]
		if !found {
			return value, nil, false
		}
		e.mu.Lock()
		if e.retired {
			// Swapped out between the load and the lock: the new state
			// has its successor, or no such instance.
			e.mu.Unlock()
			continue
		}
		e.holders++
		e.mu.Unlock()
		return e.value, sync.OnceFunc(func() { p.give(e) }), true
	}
}

// Set returns the instances in service.
func (p *Pool[T]) Set() Set { return p.state.Load().set }

// Names returns the names of the instances in service, in file order.
func (p *Pool[T]) Names() []string { return p.Set().Names() }

// Each calls fn with every instance in service and its value (for
// start-up work such as starting background refreshes).
func (p *Pool[T]) Each(fn func(Instance, T)) {
	s := p.state.Load()
	for _, in := range s.set.Instances {
		fn(in, s.entries[in.Name].value)
	}
}

// Close retires every instance; their values are closed once the requests
// holding them are done. The pool serves nothing afterwards.
func (p *Pool[T]) Close() {
	p.apply.Lock()
	defer p.apply.Unlock()
	old := p.state.Swap(&poolState[T]{entries: map[string]*entry[T]{}})
	for _, e := range old.entries {
		p.retire(e)
	}
}

// give ends one request's hold on e.
func (p *Pool[T]) give(e *entry[T]) {
	e.mu.Lock()
	e.holders--
	done := e.retired && e.holders == 0 && !e.closed
	e.closed = e.closed || done
	e.mu.Unlock()
	if done {
		p.close(e.value)
	}
}

// retire marks e out of service and closes it when nobody holds it.
func (p *Pool[T]) retire(e *entry[T]) {
	e.mu.Lock()
	e.retired = true
	done := e.holders == 0 && !e.closed
	e.closed = e.closed || done
	e.mu.Unlock()
	if done {
		p.close(e.value)
	}
}
