// SPDX-License-Identifier: Apache-2.0

package model

// TargetRule pairs a read target with the support rule that says how a
// detected Dagu serves it. The read tool's target rows name the rule; the
// upstream adapter keys its support table by it, so doctor and /readyz
// list every target without a list of targets of their own.
type TargetRule struct {
	// Target is the read target's name.
	Target string `json:"target"`
	// Support names the upstream support rule (local, served, wiki, ...).
	Support string `json:"support"`
}
