// SPDX-License-Identifier: Apache-2.0

//go:build hostile && linux

package hostile

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/dagu-mcp-gateway/gateway/tests/gwproc"
)

// Guarantees of issue 38, checked after every attack by a verified
// caller: the victim's big reads succeed at least 90% of the time, its
// medium and tiny reads 95% (peak RSS as in issue 28).
const (
	minVictimBigSuccess   = 0.90
	minVictimSmallSuccess = 0.95
	shareAttackTime       = 30 * time.Second
	// victimReadTimeout bounds one read of the victim: a big read takes
	// seconds on two shared cores under load before any attack.
	victimReadTimeout = 30 * time.Second
)

// Tokens of the token-mode gateways: the attackers' own and the victim's
// (any 16 or more printable characters).
const (
	attackerToken  = "attacker-token-0123456789abcdef"
	attacker2Token = "attacker2-token-0123456789abcdef"
	attacker3Token = "attacker3-token-0123456789abcdef"
	victimToken    = "victim-token-0123456789abcdef"
)

// The windows of the big step log the attackers and the victim read:
// tiny (10 KB), medium (1.4 MB) and big (20 MB of log text, cut to the
// answer cap of 4 MiB).
var (
	tinyWindow   = "?tail=5&stream=stdout"
	mediumWindow = "?tail=700&stream=stdout"
	bigWindow    = "?tail=10000&stream=stdout"
)

// victimClient is the victim's: each read is bounded by its context
// (victimReadTimeout) alone.
var victimClient = &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}}

// patientRead is one read through victimClient bounded by
// victimReadTimeout.
func patientRead(url, bearer, args string) outcome {
	ctx, cancel := context.WithTimeout(context.Background(), victimReadTimeout)
	defer cancel()
	return postVia(ctx, victimClient, url, bearer, rpcBody(args), nil)
}

// windowRead is the dagu_read arguments of a window of the big log.
func windowRead(d *dagu, window string) string {
	return fmt.Sprintf(`{"uri":%q}`, d.bigLog+window)
}

// shareArena is what an attack of issue 38 works with: the gateway, the
// endpoints the attackers and the victim call, and their bearers.
type shareArena struct {
	t         *testing.T
	g         *gateway
	d         *dagu
	attackAt  string   // the attackers' endpoint URL
	victimAt  string   // the victim's endpoint URL
	victim    string   // the victim's bearer
	attackers []string // the attackers' bearers, each its own caller
}

// shareAttack is one row of issue 38's attacks.
type shareAttack struct {
	name string
	// instances serves two instances, a (the attackers') and b (the
	// victim's), both in front of the suite's Dagu.
	instances bool
	// passthrough runs the gateway in passthrough: the victim and the
	// attackers each send a Dagu key of their own (the fake's users).
	passthrough bool
	// args are extra gateway flags.
	args []string
	// slowHeads has the fake Dagu answer head windows of the big log in 3
	// to 12 s.
	slowHeads bool
	// duration is how long the attack lasts.
	duration time.Duration
	hostile  func(ctx context.Context, a *shareArena)
	// keepsBigWindow: the victim's big window, read before the attack,
	// stays in the run cache throughout it: at most one more read of it
	// reaches Dagu (checked against the fake, which counts them).
	keepsBigWindow bool
}

// Tail windows of the big log the victim reads.
const (
	tinyTail   = 5
	mediumTail = 700
	bigTail    = 10000
)

// startTokenGateway runs a token-mode gateway in front of d (its key for
// Dagu) with the attackers' and the victim's tokens and extra flags; with
// instances, the attackers' tokens are for instance a and the victim's for
// b.
func startTokenGateway(t *testing.T, d *dagu, instances bool, extra []string) *gateway {
	t.Helper()
	dir := t.TempDir()
	scope := func(name string) string { return "" }
	args := []string{"--dagu-url", d.url, "--dagu-api-key", d.key}
	if instances {
		keyFile := filepath.Join(dir, "dagu.key")
		writeFile(t, keyFile, d.key+"\n")
		file := filepath.Join(dir, "instances.yaml")
		writeFile(t, file, fmt.Sprintf("instances:\n  - name: a\n    url: %s\n    apiKeyFile: %s\n  - name: b\n    url: %s\n    apiKeyFile: %s\n", d.url, keyFile, d.url, keyFile))
		scope = func(name string) string { return " instances=" + name }
		// The defaults otherwise: the two instances' 20 MB windows do not
		// both fit the 32 MiB run cache, and what keeps the row under
		// maxPeakRSS is the soft memory limit the gateway derives from its
		// settings (--memory-limit auto), not a bigger cache.
		args = []string{"--instances", file}
	}
	tokens := filepath.Join(dir, "tokens")
	writeFile(t, tokens, "attacker:"+attackerToken+scope("a")+"\nattacker2:"+attacker2Token+scope("a")+
		"\nattacker3:"+attacker3Token+scope("a")+"\nvictim:"+victimToken+scope("b")+"\n")
	args = append(append(args, extra...), "--auth-token-file", tokens)
	return gwproc.Start(t, gwproc.Options{Bin: gatewayBin, Args: args, Env: os.Environ()})
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

// sizedTally counts the victim's reads of one window and their
// latencies.
type sizedTally struct {
	tally
	mu        sync.Mutex
	latencies []time.Duration
	failures  map[string]int // the start of each failed answer, counted
}

func (s *sizedTally) add(o outcome, took time.Duration) {
	s.total.Add(1)
	s.mu.Lock()
	defer s.mu.Unlock()
	if o.ok {
		s.ok.Add(1)
		s.latencies = append(s.latencies, took)
		return
	}
	if s.failures == nil {
		s.failures = map[string]int{}
	}
	why := fmt.Sprintf("%d %s %v", o.status, o.answer[:min(len(o.answer), 160)], o.err)
	s.failures[why]++
}

// p50 is the median latency of the successful reads.
func (s *sizedTally) p50() time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.latencies) == 0 {
		return 0
	}
	l := slices.Clone(s.latencies)
	slices.Sort(l)
	return l[len(l)/2]
}

// victimWindows reads the tiny, medium and big windows in turn with the
// victim's token until ctx ends, 100 ms apart.
func victimWindows(ctx context.Context, a *shareArena, tiny, medium, big *sizedTally) {
	for ctx.Err() == nil {
		for _, w := range []struct {
			window string
			into   *sizedTally
		}{{tinyWindow, tiny}, {mediumWindow, medium}, {bigWindow, big}} {
			if ctx.Err() != nil {
				return
			}
			start := time.Now()
			o := patientRead(a.victimAt, a.victim, windowRead(a.d, w.window))
			w.into.add(o, time.Since(start))
			sleep(ctx, 100*time.Millisecond)
		}
	}
}

// runShareAttack starts a token-mode gateway (or a passthrough one),
// verifies the victim (each window reads before the attack), runs the
// attack with the victim reading throughout, and checks the guarantees.
func runShareAttack(t *testing.T, at shareAttack) {
	d := daguUnder
	if d.front == nil && d.bigLog == "" {
		t.Skip("HOSTILE_BIG_LOG_URI is needed with a real Dagu")
	}
	if d.front == nil && (at.passthrough || at.slowHeads) {
		t.Skip("the fake Dagu's users (passthrough) and slow windows are needed")
	}
	if at.slowHeads {
		d.front.slowHeads.Store(true)
		t.Cleanup(func() { d.front.slowHeads.Store(false) })
	}
	a := &shareArena{t: t, d: d}
	if at.passthrough {
		a.g = startGateway(t, d, "", append(append([]string{}, passthrough...), at.args...))
		a.victim = d.newCaller(t)
		a.attackers = []string{d.newCaller(t), d.newCaller(t), d.newCaller(t)}
	} else {
		a.g = startTokenGateway(t, d, at.instances, at.args)
		a.victim, a.attackers = victimToken, []string{attackerToken, attacker2Token, attacker3Token}
	}
	g := a.g
	a.attackAt, a.victimAt = g.Base+"/mcp", g.Base+"/mcp"
	if at.instances {
		a.attackAt, a.victimAt = g.Base+"/dagu/a/mcp", g.Base+"/dagu/b/mcp"
	}
	var before [3]time.Duration
	for i, w := range []string{tinyWindow, mediumWindow, bigWindow} {
		start := time.Now()
		if o := patientRead(a.victimAt, a.victim, windowRead(d, w)); !o.ok {
			t.Fatalf("the victim does not read %s before the attack: %d %s %v", w, o.status, o.answer, o.err)
		}
		before[i] = time.Since(start)
	}
	if o := patientRead(a.attackAt, a.attackers[0], windowRead(d, bigWindow)); !o.ok {
		t.Fatalf("the attacker does not read the big window before the attack: %d %s %v", o.status, o.answer, o.err)
	}
	var fetched [3]int64
	for i, tail := range []int{tinyTail, mediumTail, bigTail} {
		fetched[i] = d.bigLogReads(tail)
	}
	ctx := withTimeout(t, at.duration)
	var tiny, medium, big sizedTally
	var wg sync.WaitGroup
	wg.Go(func() { at.hostile(ctx, a) })
	wg.Go(func() { victimWindows(ctx, a, &tiny, &medium, &big) })
	wg.Wait()
	rss := g.PeakRSS(t)
	for i, tail := range []int{tinyTail, mediumTail, bigTail} {
		fetched[i] = d.bigLogReads(tail) - fetched[i]
	}
	if fetched[2] >= 0 {
		t.Logf("RESULT %s: the victim's windows read from Dagu during the attack (by anyone): big %d, medium %d, tiny %d",
			at.name, fetched[2], fetched[1], fetched[0])
	}
	if at.keepsBigWindow && fetched[2] > 1 {
		t.Errorf("the victim's big window was read from Dagu %d times during the attack, want at most 1", fetched[2])
	}
	t.Logf("RESULT %s: peak RSS %d MiB; victim big %d/%d (%.0f%%, p50 %s), medium %d/%d (%.0f%%, p50 %s), tiny %d/%d (%.0f%%, p50 %s); before the attack big %s, medium %s, tiny %s",
		at.name, rss>>20,
		big.ok.Load(), big.total.Load(), 100*big.rate(), big.p50().Round(time.Millisecond),
		medium.ok.Load(), medium.total.Load(), 100*medium.rate(), medium.p50().Round(time.Millisecond),
		tiny.ok.Load(), tiny.total.Load(), 100*tiny.rate(), tiny.p50().Round(time.Millisecond),
		before[2].Round(time.Millisecond), before[1].Round(time.Millisecond), before[0].Round(time.Millisecond))
	for name, s := range map[string]*sizedTally{"big": &big, "medium": &medium, "tiny": &tiny} {
		for why, n := range s.failures {
			t.Logf("victim %s read failed %d times: %s", name, n, why)
		}
	}
	if !g.Alive() {
		t.Errorf("the gateway died during the attack")
	}
	if rss > maxPeakRSS {
		t.Errorf("peak RSS %d MiB, above %d MiB", rss>>20, maxPeakRSS>>20)
	}
	check := func(name string, s *sizedTally, least float64) {
		if s.total.Load() == 0 || s.rate() < least {
			t.Errorf("the victim's %s reads succeeded %d of %d times, below %.0f%%", name, s.ok.Load(), s.total.Load(), 100*least)
		}
	}
	check("big", &big, minVictimBigSuccess)
	check("medium", &medium, minVictimSmallSuccess)
	check("tiny", &tiny, minVictimSmallSuccess)
}

// flood is issue 38's first attack by one token: 4 threads reading the
// big window (each answer 4 MiB, from 20 MB of log text), 8 threads
// reading the medium one and 2 requests whose declared 1 MiB bodies never
// come, held until the gateway answers.
func flood(ctx context.Context, at, token string, d *dagu, big, medium, held int) {
	var wg sync.WaitGroup
	wg.Go(func() {
		workers(ctx, big, func(ctx context.Context, _ int) { readAt(ctx, at, token, windowRead(d, bigWindow), nil) })
	})
	wg.Go(func() {
		workers(ctx, medium, func(ctx context.Context, _ int) { readAt(ctx, at, token, windowRead(d, mediumWindow), nil) })
	})
	wg.Go(func() {
		workers(ctx, held, func(ctx context.Context, _ int) { declaredBodyNeverSentAt(ctx, at, token, 1<<20) })
	})
	wg.Wait()
}

// TestIssue38Attacks runs the attacks of issue 38's first finding by
// callers with a valid credential of their own (38.2: the attack review's
// run-cache eviction), each for shareAttackTime,
// against a victim with another token reading tiny, medium and big
// windows of a step log in turn.
func TestIssue38Attacks(t *testing.T) {
	attacks := []shareAttack{
		{name: "38.1 one token: big reads, medium reads, held bodies", duration: shareAttackTime,
			hostile: func(ctx context.Context, a *shareArena) {
				flood(ctx, a.attackAt, a.attackers[0], a.d, 4, 8, 2)
			}},
		// The attacker and the victim each send a key of the fake's users
		// of their own. Peak RSS is close to the bound here (234 to 255
		// MiB in three runs; with --run-cache-size 64MiB, 269 to 289).
		{name: "38.1p passthrough, one key: big reads, medium reads, held bodies", passthrough: true, duration: shareAttackTime,
			hostile: func(ctx context.Context, a *shareArena) {
				flood(ctx, a.attackAt, a.attackers[0], a.d, 4, 8, 2)
			}},
		{name: "38.1s one token: two slow readers at 20 KB/s, MSS 1460, reconnecting every 15 s", duration: shareAttackTime,
			hostile: func(ctx context.Context, a *shareArena) {
				body := rpcBody(windowRead(a.d, bigWindow))
				workers(ctx, 2, func(ctx context.Context, _ int) {
					readCtx, cancel := context.WithTimeout(ctx, 15*time.Second)
					defer cancel()
					slowReadAt(readCtx, a.attackAt, a.attackers[0], body, 20<<10)
				})
			}},
		{name: "38.1i two tokens of instance a against a reader of instance b", instances: true, duration: shareAttackTime,
			hostile: func(ctx context.Context, a *shareArena) {
				var wg sync.WaitGroup
				wg.Go(func() { flood(ctx, a.attackAt, a.attackers[0], a.d, 1, 2, 1) })
				wg.Go(func() { flood(ctx, a.attackAt, a.attackers[1], a.d, 1, 2, 1) })
				wg.Wait()
			}},
		// Without the run cache, so that the victim's reads reach Dagu.
		// Each attacker read asks Dagu for both streams at once, so the
		// attackers alone want more requests to Dagu than
		// --upstream-concurrency's places and queue (32 and 32).
		{name: "38.u upstream places: three tokens, 16 reads each of a window Dagu answers in 3 to 12 s",
			args: []string{"--run-cache-size", "0"}, slowHeads: true, duration: shareAttackTime,
			hostile: func(ctx context.Context, a *shareArena) {
				var wg sync.WaitGroup
				for _, bearer := range a.attackers {
					wg.Go(func() {
						workers(ctx, 16, func(ctx context.Context, seq int) {
							readAt(ctx, a.attackAt, bearer, fmt.Sprintf(`{"uri":%q}`, a.d.bigLog+fmt.Sprintf("?head=%d", 1+seq%50)), nil)
						})
					})
				}
				wg.Wait()
			}},
		{name: "38.2 one token: distinct step-log windows, 2 threads", duration: shareAttackTime, keepsBigWindow: true,
			hostile: func(ctx context.Context, a *shareArena) {
				workers(ctx, 2, func(ctx context.Context, seq int) {
					window := fmt.Sprintf("?tail=%d&stream=stdout", 1500+seq%1500)
					readAt(ctx, a.attackAt, attackerToken, windowRead(a.d, window), nil)
				})
			}},
	}
	for _, at := range attacks {
		t.Run(at.name, func(t *testing.T) { runShareAttack(t, at) })
	}
}
