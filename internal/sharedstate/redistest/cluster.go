// SPDX-License-Identifier: Apache-2.0

package redistest

import (
	"context"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// clusterNodeTimeout is how long a cluster node may be silent before the
// others count it failed (cluster-node-timeout): short, so a killed master
// is replaced by its replica within a few seconds.
const clusterNodeTimeout = 1000 * time.Millisecond

// Cluster is a Redis Cluster on loopback: its nodes joined and every slot
// served, replicas in sync.
type Cluster struct {
	t testing.TB
	// Nodes are every node, in the order redis-cli was given them: with
	// replicas, the first masters are masters and the rest their replicas
	// (until a failover).
	Nodes []*Server
}

// StartCluster starts masters nodes with replicas replicas each, joins them
// with redis-cli --cluster create and waits until the cluster serves every
// slot. opts apply to every node. Every node is killed when the test ends.
func StartCluster(t testing.TB, masters, replicas int, opts ...Option) *Cluster {
	t.Helper()
	cli := cliBinary(t)
	c := &Cluster{t: t}
	addrs := make([]string, 0, masters*(1+replicas))
	for range masters * (1 + replicas) {
		bus, err := freePort()
		if err != nil {
			t.Fatalf("redistest: %v", err)
		}
		n := Start(t, append([]Option{withArgs("--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
			"--cluster-node-timeout", strconv.Itoa(int(clusterNodeTimeout.Milliseconds())), "--cluster-port", strconv.Itoa(bus))}, opts...)...)
		c.Nodes = append(c.Nodes, n)
		addrs = append(addrs, n.Addr())
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	args := append([]string{"--cluster", "create"}, addrs...)
	args = append(args, "--cluster-replicas", strconv.Itoa(replicas), "--cluster-yes")
	if out, err := exec.CommandContext(ctx, cli, args...).CombinedOutput(); err != nil {
		t.Fatalf("redistest: redis-cli --cluster create: %v\n%s", err, out)
	}
	c.WaitHealthy(time.Minute)
	return c
}

// cliBinary finds redis-cli, which comes with redis-server.
func cliBinary(t testing.TB) string {
	t.Helper()
	binary(t)
	cli, err := exec.LookPath("redis-cli")
	if err != nil {
		t.Fatalf("redistest: redis-server is installed but redis-cli is not: %v", err)
	}
	return cli
}

// URL is the cluster's redis+cluster:// URL naming every node.
func (c *Cluster) URL() string {
	addrs := make([]string, 0, len(c.Nodes))
	for _, n := range c.Nodes {
		addrs = append(addrs, n.Addr())
	}
	return "redis+cluster://" + strings.Join(addrs, ",")
}

// Client is a cluster client of the live nodes, closed with the test.
func (c *Cluster) Client() *redis.ClusterClient {
	cc := c.newClient()
	c.t.Cleanup(func() { _ = cc.Close() })
	return cc
}

// newClient is a cluster client of the live nodes its caller closes.
func (c *Cluster) newClient() *redis.ClusterClient {
	var addrs []string
	for _, n := range c.Nodes {
		if n.Running() {
			addrs = append(addrs, n.Addr())
		}
	}
	return redis.NewClusterClient(&redis.ClusterOptions{Addrs: addrs, Protocol: 2, DisableIdentity: true})
}

// MasterOf is the node that serves key's slot now.
func (c *Cluster) MasterOf(key string) *Server {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cc := c.newClient()
	defer cc.Close()
	m, err := cc.MasterForKey(ctx, key)
	if err != nil {
		c.t.Fatalf("redistest: the master of %q: %v", key, err)
	}
	for _, n := range c.Nodes {
		if n.Addr() == m.Options().Addr {
			return n
		}
	}
	c.t.Fatalf("redistest: the master of %q is %s, not a node of this cluster", key, m.Options().Addr)
	return nil
}

// WaitHealthy waits until every live node says the cluster is ok, every
// master among them that serves slots is live, and every live replica is
// in sync with its master.
func (c *Cluster) WaitHealthy(timeout time.Duration) {
	c.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		err := c.healthy()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("redistest: the cluster is not healthy after %s: %v", timeout, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// healthy says why the cluster is not healthy yet, or nil.
func (c *Cluster) healthy() error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for _, n := range c.Nodes {
		if !n.Running() {
			continue
		}
		if err := nodeHealthy(ctx, n); err != nil {
			return err
		}
	}
	return nil
}

// nodeHealthy says why one node is not a healthy part of its cluster.
func nodeHealthy(ctx context.Context, n *Server) error {
	rc := n.newClient()
	defer rc.Close()
	info, err := rc.ClusterInfo(ctx).Result()
	if err != nil {
		return err
	}
	if !strings.Contains(info, "cluster_state:ok") {
		return fmt.Errorf("%s: cluster state is not ok", n.Addr())
	}
	repl, err := rc.Info(ctx, "replication").Result()
	if err != nil {
		return err
	}
	if strings.Contains(repl, "role:slave") {
		return replicaInSync(n)
	}
	return nil
}

// Reshard moves slots slots from one master to another with redis-cli
// --cluster reshard (keys and all, by MIGRATE), while the cluster serves;
// it returns when redis-cli is done.
func (c *Cluster) Reshard(from, to *Server, slots int) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, cliBinary(c.t), "--cluster", "reshard", from.Addr(),
		"--cluster-from", nodeID(c.t, from), "--cluster-to", nodeID(c.t, to),
		"--cluster-slots", strconv.Itoa(slots), "--cluster-yes", "--cluster-pipeline", "10").CombinedOutput()
	if err != nil {
		c.t.Fatalf("redistest: redis-cli --cluster reshard: %v\n%s", err, out)
	}
}

// nodeID is a cluster node's ID (CLUSTER MYID).
func nodeID(t testing.TB, n *Server) string {
	t.Helper()
	rc := n.newClient()
	defer rc.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	id, err := rc.Do(ctx, "CLUSTER", "MYID").Text()
	if err != nil {
		t.Fatalf("redistest: CLUSTER MYID of %s: %v", n.Addr(), err)
	}
	return id
}
