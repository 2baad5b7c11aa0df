// SPDX-License-Identifier: Apache-2.0

//go:build hostile && linux

package hostile

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Guarantees of issue 28, checked after every attack.
const (
	maxPeakRSS       = 256 << 20
	minVictimSuccess = 0.95
	attackTime       = 10 * time.Second
	// maxAttackRequests bounds the hostile requests of one attack.
	maxAttackRequests = 50_000
)

// passthrough is the mode the team shares a gateway in: each caller
// sends its own Dagu key.
var passthrough = []string{"--upstream-auth", "passthrough"}

// trustedLoopback makes the suite a trusted proxy, so that
// X-Forwarded-For can name the addresses attackers come from. It is set
// by environment: an older build without the setting ignores it and sees
// every caller at 127.0.0.1.
var trustedLoopback = []string{"GATEWAY_TRUSTED_PROXIES=127.0.0.1/32", "GATEWAY_CLIENT_IP_HEADER=X-Forwarded-For"}

// arena is what an attack works with.
type arena struct {
	t        *testing.T
	g        *gateway
	d        *dagu
	attacker string // an ordinary key Dagu accepts, the attacker's own
}

// attack is one row of the suite.
type attack struct {
	name string
	// env is extra gateway environment; args extra flags.
	env  []string
	args []string
	// hostile runs the attack until ctx ends.
	hostile func(ctx context.Context, a *arena)
	// precheck, when set, shows before the attack that it is real (the
	// read it repeats succeeds).
	precheck func(a *arena)
	// victimIdle is how long the victim's first read is past when the
	// attack starts: longer than a verdict the gateway uses as it is.
	victimIdle time.Duration
	// victimFrom and newcomerFrom are the headers a verified caller and
	// the i-th new caller send (their address behind a trusted proxy).
	victimFrom   http.Header
	newcomerFrom func(i int) http.Header
	newcomers    int
}

// runAttack starts a gateway, verifies the victim, runs the attack with
// the victim reading throughout and new callers arriving after 2 s, and
// checks the guarantees.
func runAttack(t *testing.T, at attack) {
	d := daguUnder
	g := startGateway(t, d, "", append(append([]string{}, passthrough...), at.args...), at.env...)
	a := &arena{t: t, g: g, d: d, attacker: d.newCaller(t)}
	if o := read(context.Background(), g.Base, d.key, victimRead, at.victimFrom); !o.ok {
		t.Fatalf("the victim's key does not read before the attack: %+v", o)
	}
	if at.precheck != nil {
		at.precheck(a)
	}
	time.Sleep(at.victimIdle)
	checksBefore := d.unknownCredentials()
	ctx := withTimeout(t, attackTime)
	var wg sync.WaitGroup
	wg.Go(func() { at.hostile(ctx, a) })
	var victimReads tally
	wg.Go(func() { victim(ctx, g.Base, d.key, at.victimFrom, &victimReads) })
	in, want := 0, at.newcomers
	if want == 0 {
		want = 5
	}
	sleep(ctx, 2*time.Second)
	for i := range want {
		var from http.Header
		if at.newcomerFrom != nil {
			from = at.newcomerFrom(i)
		}
		if ok, last := getsIn(g.Base, d.newCaller(t), from); ok {
			in++
		} else {
			t.Logf("new caller %d did not get in; last answer: %d %s %v", i, last.status, last.answer, last.err)
		}
	}
	wg.Wait()
	rss := g.PeakRSS(t)
	t.Logf("RESULT %s: peak RSS %d MiB, victim %d/%d reads (%.0f%%), new callers in within 5 s: %d/%d, gateway log %d KiB, unknown credentials sent to Dagu %s",
		at.name, rss>>20, victimReads.ok.Load(), victimReads.total.Load(), 100*victimReads.rate(), in, want, g.Logs.Total()>>10, d.unknownSince(checksBefore))
	if !g.Alive() {
		t.Errorf("the gateway died during the attack")
	}
	if rss > maxPeakRSS {
		t.Errorf("peak RSS %d MiB, above %d MiB", rss>>20, maxPeakRSS>>20)
	}
	if victimReads.rate() < minVictimSuccess {
		t.Errorf("the verified caller's reads succeeded %d of %d times, below %.0f%%", victimReads.ok.Load(), victimReads.total.Load(), 100*minVictimSuccess)
	}
	if in < want {
		t.Errorf("%d of %d new real callers got in within 5 s", in, want)
	}
}

// workers runs n copies of f until ctx ends or they have called it
// maxAttackRequests times together; seq numbers the calls.
func workers(ctx context.Context, n int, f func(ctx context.Context, seq int)) {
	var wg sync.WaitGroup
	var calls atomic.Int64
	for range n {
		wg.Go(func() {
			for ctx.Err() == nil {
				seq := calls.Add(1)
				if seq > maxAttackRequests {
					return
				}
				f(ctx, int(seq))
			}
		})
	}
	wg.Wait()
}

// TestIssue28Attacks runs attacks 1 to 4 of issue 28's table and shapes
// the issue did not list, each for attackTime.
func TestIssue28Attacks(t *testing.T) {
	bigArgs := rpcBody(unknownKeysArguments(1<<20 - 256)) // within the front door's 1 MiB body limit
	attacks := []attack{
		// The victim's key was accepted 65 s before the attack: the
		// verdict is past the minute it was used as it is (before: 0 of
		// 20 reads once it expired).
		{name: "1 one address, made-up bearers", victimIdle: 65 * time.Second, hostile: func(ctx context.Context, a *arena) {
			workers(ctx, 4, func(ctx context.Context, _ int) { read(ctx, a.g.Base, madeUpKey(), victimRead, nil) })
		}},
		{name: "1p one client behind a trusted ingress, made-up bearers", env: trustedLoopback,
			victimFrom:   forwardedFor("203.0.113.7"),
			newcomerFrom: func(i int) http.Header { return forwardedFor(fmt.Sprintf("198.51.100.%d", i+1)) },
			hostile: func(ctx context.Context, a *arena) {
				workers(ctx, 4, func(ctx context.Context, _ int) {
					read(ctx, a.g.Base, madeUpKey(), victimRead, forwardedFor("192.0.2.66"))
				})
			}},
		{name: "2 1 MiB bodies of unknown keys, made-up bearers", hostile: func(ctx context.Context, a *arena) {
			workers(ctx, 32, func(ctx context.Context, _ int) { post(ctx, a.g.Base, madeUpKey(), bigArgs, nil) })
		}},
		{name: "2b 1 MiB bodies of unknown keys, one ordinary key", hostile: func(ctx context.Context, a *arena) {
			workers(ctx, 32, func(ctx context.Context, _ int) { post(ctx, a.g.Base, a.attacker, bigArgs, nil) })
		}},
		{name: "3 big step log, tail=10000, slow readers", hostile: func(ctx context.Context, a *arena) {
			args := fmt.Sprintf(`{"uri":%q}`, a.d.bigLog+"?tail=10000&stream=stdout")
			workers(ctx, 4, func(ctx context.Context, _ int) { slowRead(ctx, a.g.Base, a.attacker, rpcBody(args)) })
		}, precheck: func(a *arena) {
			if a.d.bigLog == "" {
				a.t.Fatal("HOSTILE_BIG_LOG_URI is needed with a real Dagu")
			}
			o := read(context.Background(), a.g.Base, a.attacker, fmt.Sprintf(`{"uri":%q}`, a.d.bigLog+"?tail=10000&stream=stdout"), nil)
			if !o.ok {
				a.t.Fatalf("the big log does not read: %d %s %v", o.status, o.answer, o.err)
			}
			a.t.Logf("one read of the big log answers %d bytes", o.size)
		}},
		{name: "4 made-up keys from 1,024 /64s of one /48", env: trustedLoopback,
			victimFrom:   forwardedFor("203.0.113.7"),
			newcomers:    20,
			newcomerFrom: func(i int) http.Header { return forwardedFor(fmt.Sprintf("198.51.100.%d", i+1)) },
			hostile: func(ctx context.Context, a *arena) {
				workers(ctx, 8, func(ctx context.Context, seq int) {
					from := fmt.Sprintf("2001:db8:4800:%x::%x", seq%1024, seq)
					read(ctx, a.g.Base, madeUpKey(), victimRead, forwardedFor(from))
				})
			}},
		{name: "own: one made-up key from 5,000 addresses", env: trustedLoopback,
			victimFrom:   forwardedFor("203.0.113.7"),
			newcomerFrom: func(i int) http.Header { return forwardedFor(fmt.Sprintf("198.51.100.%d", i+1)) },
			hostile: func(ctx context.Context, a *arena) {
				key := madeUpKey()
				workers(ctx, 8, func(ctx context.Context, seq int) {
					k := seq % 5000
					read(ctx, a.g.Base, key, victimRead, forwardedFor(fmt.Sprintf("10.%d.%d.1", k/250, k%250)))
				})
			}},
		{name: "own: 1,000 connections with unfinished headers", hostile: func(ctx context.Context, a *arena) {
			slowHeaders(ctx, a.g.Base, 1000)
		}},
		// As many connections as a default file limit lets one client
		// open, each costing memory for as long as its headers take
		// (10 s) unless the server bounds the connections it keeps.
		{name: "own: 18,000 connections with unfinished headers", hostile: func(ctx context.Context, a *arena) {
			a.t.Logf("%d connections opened", slowHeaders(ctx, a.g.Base, 18_000))
		}},
		{name: "own: 64 request bodies that never end", hostile: func(ctx context.Context, a *arena) {
			workers(ctx, 64, func(ctx context.Context, seq int) {
				key := madeUpKey()
				if seq%2 == 0 {
					key = a.attacker
				}
				endlessBody(ctx, a.g.Base, key)
			})
		}},
		{name: "own: 900 KiB headers", hostile: func(ctx context.Context, a *arena) {
			workers(ctx, 16, func(ctx context.Context, _ int) {
				read(ctx, a.g.Base, madeUpKey(), victimRead, http.Header{"X-Padding": {hugeValue}})
			})
		}},
		{name: "own: 64 concurrent initialize", hostile: func(ctx context.Context, a *arena) {
			workers(ctx, 64, func(ctx context.Context, seq int) {
				key := madeUpKey()
				if seq%4 == 0 {
					key = a.attacker
				}
				post(ctx, a.g.Base, key, initializeBody, nil)
			})
		}},
		{name: "own: 1 MiB of JSON nesting", hostile: func(ctx context.Context, a *arena) {
			workers(ctx, 16, func(ctx context.Context, seq int) {
				key := madeUpKey()
				if seq%2 == 0 {
					key = a.attacker
				}
				post(ctx, a.g.Base, key, deepBody, nil)
			})
		}},
		{name: "own: 1 MiB URIs and queries", hostile: func(ctx context.Context, a *arena) {
			workers(ctx, 16, func(ctx context.Context, seq int) {
				if seq%2 == 0 {
					read(ctx, a.g.Base, a.attacker, longURIArgs, nil)
					return
				}
				longQuery(ctx, a.g.Base, madeUpKey())
			})
		}},
		// Before the memory shares (f092ea7): the verified caller read 1
		// of 93 times here, the rest 503 (the memory budget was spent).
		{name: "own: 2,200 declared bodies that never come, made-up bearers", hostile: func(ctx context.Context, a *arena) {
			workers(ctx, 2200, func(ctx context.Context, _ int) { declaredBodyNeverSent(ctx, a.g.Base, madeUpKey(), 8<<10) })
		}},
		// Before the memory shares (f092ea7): 1 of 99 reads, the rest 503.
		{name: "own: declared bodies that never come, one ordinary key", hostile: func(ctx context.Context, a *arena) {
			workers(ctx, 91, func(ctx context.Context, seq int) {
				length := 8 << 10
				if seq%91 < 11 {
					length = 1 << 20
				}
				declaredBodyNeverSent(ctx, a.g.Base, a.attacker, length)
			})
		}},
	}
	for _, at := range attacks {
		t.Run(at.name, func(t *testing.T) { runAttack(t, at) })
	}
}
