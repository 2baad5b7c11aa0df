// SPDX-License-Identifier: Apache-2.0

package restclient

// Limits are the caps of calls to Dagu that several clients share: a
// gateway in front of several Dagu servers keeps one concurrency cap (with
// its cluster-wide budget) and one budget of answer bodies for all of them,
// never one per server.
type Limits struct {
	cap    *concurrencyCap
	bodies *bodyBudget
}

// NewLimits builds the shared caps from cfg's Concurrency, SharedBudget,
// BodyBudget and Memory (with their defaults); the other fields are not
// read.
func NewLimits(cfg Config) *Limits {
	return &Limits{cap: newConcurrencyCap(cfg.Concurrency, cfg.SharedBudget), bodies: newBodyBudget(cfg.BodyBudget, cfg.Memory)}
}

// Close gives the client's share of the shared concurrency cap back to the
// other clients and closes its idle connections: what a client no longer
// used (a Dagu instance removed from the instances file) holds.
func (c *Client) Close() {
	c.doer.share.Leave()
	c.CloseIdleConnections()
}

// CloseIdleConnections closes the client's pooled connections that carry
// no request: what a client no longer used (a Dagu instance removed from
// the instances file) holds open.
func (c *Client) CloseIdleConnections() { c.doer.resty.GetClient().CloseIdleConnections() }
