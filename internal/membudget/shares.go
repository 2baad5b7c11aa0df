// SPDX-License-Identifier: Apache-2.0

package membudget

import "time"

// Shares. Everything a caller's requests hold (their bodies, the answers
// being built and written with the log text read for them, Dagu's bodies
// being read for them, and so the connections they are held on) counts
// against that caller's share of the budget, and against its instance's
// share when the gateway fronts several Dagu servers. A share is the
// budget's fair part among the shares in use at its level (those holding
// bytes or waiting for them; an instance also for instanceLinger after its
// last read): the budget divided by their number, never more than the
// budget less one largest read (so one share alone always leaves a
// largest read to the others) and never less than one largest read (the
// floor: a single big read is never starved by someone else's many).
// Instances share only while two or more are in use. So one caller's
// flood, or its slow readers, hold only its own share: its own
// reservations wait or are refused, while another caller's fit. When the
// budget as a whole is spent (the shares together can be more than the
// budget), the bytes given back go to the waiting caller holding the least
// apart from the read asking (queue.go).

// The levels a reservation is counted at.
const (
	levelCaller = iota
	levelInstance
	levels
)

// Owner names the shares a reservation counts against: its caller's (who
// the credential belongs to, as the front door's trust decision names it)
// and its instance's (the Dagu server it reads, when the gateway fronts
// several). An empty name counts against no share at that level: the
// local user of a loopback gateway has the whole budget.
type Owner struct {
	Caller   string
	Instance string
}

func (o Owner) key(level int) string {
	if level == levelCaller {
		return o.Caller
	}
	return o.Instance
}

// member is one share in use: what it holds, and how many of its
// reservations wait.
type member struct {
	held      int64
	waiting   int
	idleSince time.Time // instances: when it last held nothing
}

// RaiseFloor makes every share at least n bytes (the most one read, or
// one request, reserves): the front door raises it to what a request of
// the largest body reserves, the gateway to its largest read.
func (b *Budget) RaiseFloor(n int64) {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.floor = max(b.floor, min(n, b.limit))
	b.grant()
}

// instanceLinger is how long an instance's share stays in use after its
// last reservation is given back: a reader of one instance between two
// reads keeps its part, so the callers of another do not take it back
// between its reads.
const instanceLinger = 10 * time.Second

// shareLimit is how many bytes a share of the level may hold with the
// shares of that level in use (counting the one asking). Instances share
// only while two or more are in use; alone, one instance's callers have
// the budget, each within its own share.
func (b *Budget) shareLimit(level int, key string) int64 {
	n := b.sharesInUse(level, key)
	if level == levelInstance && n < 2 {
		return b.limit
	}
	return max(b.floor, min(b.limit/n, b.limit-b.floor))
}

// sharesInUse counts the shares of the level in use, key among them; at
// the instance level it forgets those idle for longer than
// instanceLinger.
func (b *Budget) sharesInUse(level int, key string) int64 {
	members := b.members[level]
	if level == levelInstance {
		now := b.now()
		for k, m := range members {
			if m.held <= 0 && m.waiting == 0 && now.Sub(m.idleSince) >= instanceLinger {
				delete(members, k)
			}
		}
	}
	n := int64(len(members))
	if members[key] == nil {
		n++
	}
	return n
}

// fit is whether n more bytes of an owner fit now.
type fit int

const (
	fits       fit = iota
	overShare      // the owner's share (caller or instance) is spent
	overBudget     // the budget as a whole is spent
)

// check says whether n more bytes of o fit now.
func (b *Budget) check(o Owner, n int64) fit {
	for level := range levels {
		key := o.key(level)
		if key == "" {
			continue
		}
		var held int64
		if m := b.members[level][key]; m != nil {
			held = m.held
		}
		if held+n > b.shareLimit(level, key) {
			return overShare
		}
	}
	if n > b.limit-b.used {
		return overBudget
	}
	return fits
}

// largestShare is the most any share may ever hold (its limit when it is
// the only one in use); a reservation above it can never fit.
func (b *Budget) largestShare() int64 {
	return max(b.floor, b.limit-b.floor)
}

// member returns o's share at the level, creating it.
func (b *Budget) member(level int, key string) *member {
	m := b.members[level][key]
	if m == nil {
		m = &member{}
		b.members[level][key] = m
	}
	return m
}

// forget drops a caller's share that holds nothing and has nothing
// waiting; an instance's is kept for instanceLinger (sharesInUse).
func (b *Budget) forget(level int, key string) {
	m := b.members[level][key]
	if m == nil || m.held > 0 || m.waiting > 0 {
		return
	}
	if level == levelInstance {
		m.idleSince = b.now()
		return
	}
	delete(b.members[level], key)
}

// take counts n bytes of o as used.
func (b *Budget) take(o Owner, n int64) {
	b.used += n
	b.inUse.Store(b.used)
	for level := range levels {
		if key := o.key(level); key != "" {
			b.member(level, key).held += n
		}
	}
}

// give returns n bytes of o and hands what is free to the waiting.
func (b *Budget) give(o Owner, n int64) {
	b.used -= n
	b.inUse.Store(b.used)
	for level := range levels {
		if key := o.key(level); key != "" {
			b.member(level, key).held -= n
			b.forget(level, key)
		}
	}
	b.grant()
}
