// SPDX-License-Identifier: Apache-2.0

package instances

import (
	"errors"
	"slices"
	"sync"
	"testing"
)

// value is a built instance that knows whether it was closed.
type value struct {
	inst   Instance
	closed bool
}

// recorder builds values and records the closes.
type recorder struct {
	mu     sync.Mutex
	built  []string
	closed []string
	fail   string
}

func (r *recorder) build(in Instance) (*value, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if in.Name == r.fail {
		return nil, errors.New("build failed")
	}
	r.built = append(r.built, in.Name+"@"+in.URL)
	return &value{inst: in}, nil
}

func (r *recorder) close(v *value) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if v.closed {
		panic("closed twice")
	}
	v.closed = true
	r.closed = append(r.closed, v.inst.Name+"@"+v.inst.URL)
}

func set(pairs ...string) Set {
	var s Set
	for i := 0; i < len(pairs); i += 2 {
		s.Instances = append(s.Instances, Instance{Name: pairs[i], URL: pairs[i+1]})
	}
	return s
}

func TestPoolSwapsAndDrains(t *testing.T) {
	t.Parallel()
	var r recorder
	p := NewPool(r.build, r.close)
	if err := p.Apply(set("a", "http://a", "b", "http://b")); err != nil {
		t.Fatal(err)
	}
	a1, releaseA1, ok := p.Acquire("a")
	if !ok || a1.inst.URL != "http://a" {
		t.Fatalf("acquire a: %v %+v", ok, a1)
	}
	if _, _, ok := p.Acquire("c"); ok {
		t.Fatal("an unknown instance was served")
	}

	// a changes, b is removed, c is new: a's old value is held by a
	// request, so it stays open until that request is done.
	if err := p.Apply(set("a", "http://a2", "c", "http://c")); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(r.closed, []string{"b@http://b"}) {
		t.Fatalf("closed %v, want only b", r.closed)
	}
	if a1.closed {
		t.Fatal("a value was closed while a request held it")
	}
	a2, releaseA2, _ := p.Acquire("a")
	if a2.inst.URL != "http://a2" {
		t.Fatalf("new requests get %+v", a2.inst)
	}
	releaseA1()
	releaseA1() // a second call is harmless
	if !a1.closed || a2.closed {
		t.Fatalf("after the request: old closed %v, new closed %v", a1.closed, a2.closed)
	}

	// An unchanged instance keeps its value; Close drains the rest.
	c1, releaseC, _ := p.Acquire("c")
	if err := p.Apply(set("a", "http://a2", "c", "http://c")); err != nil {
		t.Fatal(err)
	}
	if c2, releaseC2, _ := p.Acquire("c"); c2 != c1 {
		t.Fatal("an unchanged instance was rebuilt")
	} else {
		releaseC2()
	}
	if got := p.Names(); !slices.Equal(got, []string{"a", "c"}) {
		t.Fatalf("names %v", got)
	}
	p.Close()
	if _, _, ok := p.Acquire("a"); ok {
		t.Fatal("a closed pool served a request")
	}
	if c1.closed || a2.closed {
		t.Fatalf("close closed held values: c %v, a %v", c1.closed, a2.closed)
	}
	releaseA2()
	releaseC()
	if !c1.closed || !a2.closed {
		t.Fatal("a value was never closed")
	}
	if len(r.built) != 4 || len(r.closed) != 4 {
		t.Fatalf("built %v, closed %v", r.built, r.closed)
	}
}

func TestPoolKeepsTheSetWhenABuildFails(t *testing.T) {
	t.Parallel()
	r := recorder{fail: "bad"}
	p := NewPool(r.build, r.close)
	if err := p.Apply(set("a", "http://a")); err != nil {
		t.Fatal(err)
	}
	err := p.Apply(set("a", "http://a2", "new", "http://n", "bad", "http://x"))
	if err == nil || err.Error() != "instance bad: build failed" {
		t.Fatalf("error %v", err)
	}
	if v, release, _ := p.Acquire("a"); v.inst.URL != "http://a" {
		t.Fatalf("the failed version replaced a: %+v", v.inst)
	} else {
		release()
	}
	if !slices.Equal(r.closed, []string{"a@http://a2", "new@http://n"}) {
		t.Fatalf("what the failed apply built was not closed: %v", r.closed)
	}
}

// TestPoolConcurrentReloads: requests racing reloads always get a live
// value and every retired value is closed exactly once (run with -race).
func TestPoolConcurrentReloads(t *testing.T) {
	t.Parallel()
	var r recorder
	p := NewPool(r.build, r.close)
	urls := []string{"http://1", "http://2"}
	if err := p.Apply(set("a", urls[0])); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 500 {
				v, release, ok := p.Acquire("a")
				if !ok {
					t.Error("a vanished")
					return
				}
				r.mu.Lock()
				closed := v.closed
				r.mu.Unlock()
				if closed {
					t.Error("got a closed value")
				}
				release()
			}
		})
	}
	for i := range 200 {
		if err := p.Apply(set("a", urls[i%2])); err != nil {
			t.Fatal(err)
		}
	}
	wg.Wait()
	p.Close()
	if len(r.closed) != len(r.built) {
		t.Fatalf("built %d, closed %d", len(r.built), len(r.closed))
	}
}
