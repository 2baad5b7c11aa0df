// SPDX-License-Identifier: Apache-2.0

package trust

import (
	"github.com/dagu-mcp-gateway/gateway/internal/redact"
)

// maxIdentityLen bounds an identity used as it is in a caller name; a
// longer one, or one with other characters, is named by its fingerprint.
const maxIdentityLen = 128

// callerName names a verified caller, and keys its limits: by whose
// credential it is when Dagu said ("dagu:<identity>"), so that fresh
// logins of one user or copies of one key share one limit; else by the
// credential's whole fingerprint ("key:<fingerprint>": a shortened one
// would let two keys share a bucket).
func callerName(identity, fingerprint string) string {
	switch {
	case identity == "":
		return "key:" + fingerprint
	case len(identity) <= maxIdentityLen && plain(identity):
		return "dagu:" + identity
	}
	return "dagu-id:" + redact.Fingerprint(identity)
}

// plain reports whether s holds only letters, digits and -_.:@ (safe in a
// log line and a limit key).
func plain(s string) bool {
	for _, r := range s {
		ok := r == '-' || r == '_' || r == '.' || r == ':' || r == '@' ||
			(r >= '0' && r <= '9') || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z')
		if !ok {
			return false
		}
	}
	return true
}
