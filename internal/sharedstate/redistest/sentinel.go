// SPDX-License-Identifier: Apache-2.0

package redistest

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// MasterName is the name the sentinels of StartSentinel watch the master by.
const MasterName = "gateway"

// Sentinel timing: a master silent for sentinelDownAfter is down, and a
// failover that stalls is retried after sentinelFailoverTimeout; short, so
// a killed master is replaced within a few seconds.
const (
	sentinelDownAfter       = 1000 * time.Millisecond
	sentinelFailoverTimeout = 5 * time.Second
)

// Sentinel is a master, its replicas and the sentinels that watch them, on
// loopback.
type Sentinel struct {
	t testing.TB
	// Master and Replicas are the data nodes as started (the roles change
	// with a failover: CurrentMaster says who is master now).
	Master   *Server
	Replicas []*Server
	// Sentinels watch the master under MasterName.
	Sentinels []*Server
	// DataPasswordFile and SentinelPasswordFile hold the passwords of
	// WithDataPassword and WithSentinelPassword, as a gateway reads them
	// ("" without one).
	DataPasswordFile, SentinelPasswordFile string
}

// SentinelOption changes how StartSentinel starts its processes.
type SentinelOption func(*sentinelSetup)

type sentinelSetup struct{ dataPassword, sentinelPassword string }

// WithDataPassword makes the master and replicas require a password.
func WithDataPassword(pw string) SentinelOption {
	return func(s *sentinelSetup) { s.dataPassword = pw }
}

// WithSentinelPassword makes the sentinels require a password of their own.
func WithSentinelPassword(pw string) SentinelOption {
	return func(s *sentinelSetup) { s.sentinelPassword = pw }
}

// StartSentinel starts a master with replicas replicas and sentinels
// sentinels (quorum: a majority) and waits until every sentinel knows the
// replicas and the other sentinels. Every process is killed when the test
// ends.
func StartSentinel(t testing.TB, replicas, sentinels int, opts ...SentinelOption) *Sentinel {
	t.Helper()
	var setup sentinelSetup
	for _, o := range opts {
		o(&setup)
	}
	data := []Option{}
	if setup.dataPassword != "" {
		data = append(data, WithPassword(setup.dataPassword), withArgs("--masterauth", setup.dataPassword))
	}
	s := &Sentinel{t: t, Master: Start(t, data...)}
	for range replicas {
		s.Replicas = append(s.Replicas, Start(t, append(data, withArgs("--replicaof", "127.0.0.1", strconv.Itoa(s.Master.Port())))...))
	}
	conf := sentinelConf(s.Master.Port(), sentinels/2+1, setup)
	var sentinelOpts []Option
	if setup.sentinelPassword != "" {
		sentinelOpts = append(sentinelOpts, WithPassword(setup.sentinelPassword))
	}
	for range sentinels {
		s.Sentinels = append(s.Sentinels, Start(t, append(sentinelOpts, withConf(conf), withArgs("--sentinel"))...))
	}
	s.waitKnown(replicas, sentinels-1, time.Minute)
	s.DataPasswordFile = passwordFile(t, "redis-password", setup.dataPassword)
	s.SentinelPasswordFile = passwordFile(t, "sentinel-password", setup.sentinelPassword)
	return s
}

// passwordFile writes pw to a file of the test's ("" without a password).
func passwordFile(t testing.TB, name, pw string) string {
	t.Helper()
	if pw == "" {
		return ""
	}
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(pw+"\n"), 0o600); err != nil {
		t.Fatalf("redistest: %v", err)
	}
	return path
}

// sentinelConf is a sentinel's configuration file, which it rewrites.
func sentinelConf(masterPort, quorum int, setup sentinelSetup) func(int) string {
	return func(int) string {
		var b strings.Builder
		fmt.Fprintf(&b, "sentinel monitor %s 127.0.0.1 %d %d\n", MasterName, masterPort, quorum)
		fmt.Fprintf(&b, "sentinel down-after-milliseconds %s %d\n", MasterName, sentinelDownAfter.Milliseconds())
		fmt.Fprintf(&b, "sentinel failover-timeout %s %d\n", MasterName, sentinelFailoverTimeout.Milliseconds())
		fmt.Fprintf(&b, "sentinel parallel-syncs %s 1\n", MasterName)
		if setup.dataPassword != "" {
			fmt.Fprintf(&b, "sentinel auth-pass %s %s\n", MasterName, setup.dataPassword)
		}
		if setup.sentinelPassword != "" {
			fmt.Fprintf(&b, "sentinel sentinel-pass %s\n", setup.sentinelPassword)
		}
		return b.String()
	}
}

// URL is the redis+sentinel:// URL naming every sentinel and the master.
func (s *Sentinel) URL() string {
	addrs := make([]string, 0, len(s.Sentinels))
	for _, n := range s.Sentinels {
		addrs = append(addrs, n.Addr())
	}
	return "redis+sentinel://" + strings.Join(addrs, ",") + "/" + MasterName
}

// CurrentMaster is the master's address as the first live sentinel names
// it.
func (s *Sentinel) CurrentMaster() string {
	s.t.Helper()
	for _, n := range s.Sentinels {
		if !n.Running() {
			continue
		}
		sc := redis.NewSentinelClient(&redis.Options{Addr: n.Addr(), Password: n.password, Protocol: 2, DisableIdentity: true})
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		addr, err := sc.GetMasterAddrByName(ctx, MasterName).Result()
		cancel()
		_ = sc.Close()
		if err == nil && len(addr) == 2 {
			return net.JoinHostPort(addr[0], addr[1])
		}
	}
	s.t.Fatal("redistest: no sentinel names the master")
	return ""
}

// WaitPromotion waits until the sentinels name a master other than old
// and it answers as a master; it returns the new master's address.
func (s *Sentinel) WaitPromotion(old string, timeout time.Duration) string {
	s.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		if addr := s.CurrentMaster(); addr != old && s.isMaster(addr) {
			return addr
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("redistest: no replica was promoted within %s", timeout)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// ServerAt is the data node at addr.
func (s *Sentinel) ServerAt(addr string) *Server {
	s.t.Helper()
	for _, n := range append([]*Server{s.Master}, s.Replicas...) {
		if n.Addr() == addr {
			return n
		}
	}
	s.t.Fatalf("redistest: no data node at %s", addr)
	return nil
}

// isMaster reports whether the node at addr answers ROLE as a master.
func (s *Sentinel) isMaster(addr string) bool {
	n := s.ServerAt(addr)
	if !n.Running() {
		return false
	}
	rc := n.newClient()
	defer rc.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	role, err := rc.Do(ctx, "ROLE").Slice()
	return err == nil && len(role) > 0 && role[0] == "master"
}

// waitKnown waits until every sentinel knows replicas replicas and
// others other sentinels.
func (s *Sentinel) waitKnown(replicas, others int, timeout time.Duration) {
	s.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		err := s.known(replicas, others)
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("redistest: the sentinels are not ready after %s: %v", timeout, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func (s *Sentinel) known(replicas, others int) error {
	for _, r := range s.Replicas {
		if err := replicaInSync(r); err != nil {
			return err
		}
	}
	for _, n := range s.Sentinels {
		sc := redis.NewSentinelClient(&redis.Options{Addr: n.Addr(), Password: n.password, Protocol: 2, DisableIdentity: true})
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		m, err := sc.Master(ctx, MasterName).Result()
		cancel()
		_ = sc.Close()
		if err != nil {
			return err
		}
		if m["num-slaves"] != strconv.Itoa(replicas) || m["num-other-sentinels"] != strconv.Itoa(others) {
			return fmt.Errorf("%s knows %s replicas and %s other sentinels", n.Addr(), m["num-slaves"], m["num-other-sentinels"])
		}
	}
	return nil
}

// replicaInSync says why a replica is not in sync with its master, or nil.
func replicaInSync(n *Server) error {
	rc := n.newClient()
	defer rc.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	repl, err := rc.Info(ctx, "replication").Result()
	if err != nil {
		return err
	}
	if !strings.Contains(repl, "master_link_status:up") {
		return fmt.Errorf("%s: replica not in sync", n.Addr())
	}
	return nil
}
