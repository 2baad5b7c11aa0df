// SPDX-License-Identifier: Apache-2.0

package restclient

import (
	"fmt"
	"net"
	"net/url"
	"strings"
)

// Compression says whether Dagu is asked to gzip its answers.
//
// Dagu gzips every answer it may, even one of 2 KB. Inflating costs the
// gateway about 25-35 µs of CPU and a fresh 41 KB inflater per answer (Go's
// transport keeps no pool of them), and Dagu pays to deflate it first, while
// on a loopback or private network the bytes saved buy nothing: measured
// against a real Dagu on loopback, an identity read of a run's details
// (2 KB) ended sooner at the median than a gzip one. Across a slower link
// the smaller answer wins. Hence CompressionAuto: identity for a Dagu at a
// loopback or private address (or localhost), gzip for any other.
type Compression string

// The compression policies.
const (
	// CompressionAuto asks for identity when the Dagu URL's host is
	// localhost or a loopback or private IP address, else for gzip.
	CompressionAuto Compression = "auto"
	// CompressionGzip asks Dagu to gzip answers and inflates them.
	CompressionGzip Compression = "gzip"
	// CompressionIdentity asks Dagu for uncompressed answers.
	CompressionIdentity Compression = "identity"
)

// wantsIdentity resolves the policy for the Dagu at base.
func (c Compression) wantsIdentity(base *url.URL) (bool, error) {
	switch c {
	case CompressionGzip:
		return false, nil
	case CompressionIdentity:
		return true, nil
	case CompressionAuto, "":
		return isNearHost(base.Hostname()), nil
	}
	return false, fmt.Errorf("dagu compression %q: use auto, gzip or identity", string(c))
}

// isNearHost reports localhost and loopback or private IP literals: a
// Dagu on the same machine or private network. A host name other than
// localhost is not resolved for this, so it counts as remote.
func isNearHost(host string) bool {
	if strings.EqualFold(host, "localhost") || strings.HasSuffix(strings.ToLower(host), ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && (ip.IsLoopback() || ip.IsPrivate())
}
