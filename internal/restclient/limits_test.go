// SPDX-License-Identifier: Apache-2.0

package restclient

import "testing"

// TestClientsShareLimits: clients given one Limits draw on one cap and one
// body budget; clients without it have their own.
func TestClientsShareLimits(t *testing.T) {
	t.Parallel()
	limits := NewLimits(Config{Concurrency: 3, BodyBudget: 1 << 20})
	a, err := New(Config{BaseURL: "http://a.example", Limits: limits})
	if err != nil {
		t.Fatal(err)
	}
	b, err := New(Config{BaseURL: "http://b.example", Limits: limits, Concurrency: 99})
	if err != nil {
		t.Fatal(err)
	}
	own, err := New(Config{BaseURL: "http://c.example"})
	if err != nil {
		t.Fatal(err)
	}
	if a.doer.cap != b.doer.cap || a.doer.bodies != b.doer.bodies {
		t.Fatal("clients given one Limits have their own caps")
	}
	if a.doer.cap.limit != 3 || a.doer.bodies.total != 1<<20 {
		t.Fatalf("cap %d, body budget %d", a.doer.cap.limit, a.doer.bodies.total)
	}
	if own.doer.cap == a.doer.cap || own.doer.bodies == a.doer.bodies {
		t.Fatal("a client without Limits shares another's")
	}
}
