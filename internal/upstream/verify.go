// SPDX-License-Identifier: Apache-2.0

package upstream

import (
	"context"
	"errors"
	"fmt"

	"github.com/dagu-mcp-gateway/gateway/internal/restclient"
)

// CredentialVerdict is what Dagu said of a caller's own credential
// (passthrough mode).
type CredentialVerdict int

// Verdicts of CheckCredential.
const (
	// CredentialAccepted: Dagu answered an authenticated read with it.
	CredentialAccepted CredentialVerdict = iota + 1
	// CredentialRefused: Dagu refused it (401, or 403 for a key that is
	// not allowed to read).
	CredentialRefused
	// CredentialLacksSurface: Dagu knows the key, but it lacks the rest_api
	// surface, so it can read nothing through REST.
	CredentialLacksSurface
)

// ErrCredentialUnchecked is returned when Dagu could not say (unreachable,
// timed out, or an answer that is neither an acceptance nor a refusal).
var ErrCredentialUnchecked = errors.New("the credential could not be checked: Dagu gave no verdict")

// CheckCredential puts the credential ctx carries (reqctx.WithCredential)
// to Dagu with the cheapest authenticated read every supported release has
// (GET /dags?perPage=1 on the detected REST base). Until a capability
// detection has succeeded, or after the last one failed, it first detects
// the server's capabilities with this credential: a passthrough gateway has
// no key of its own, and an authenticated Dagu tells an anonymous caller
// nothing of its release.
func (a *Adapter) CheckCredential(ctx context.Context) (CredentialVerdict, error) {
	if _, ok := a.Capabilities(); !ok || a.detectFailed.Load() {
		if err := a.sharedDetection(ctx); err != nil {
			a.log.DebugContext(ctx, "capability detection with the caller's credential failed", "error", err)
		}
	}
	res := a.client.Probe(ctx)
	switch {
	case res.OK:
		return CredentialAccepted, nil
	case res.Reason == restclient.ProbeSurface:
		return CredentialLacksSurface, nil
	case res.Reason == restclient.ProbeAuth:
		return CredentialRefused, nil
	}
	return 0, errors.Join(ErrCredentialUnchecked, fmt.Errorf("%s: %s: %w", res.Reason, res.Detail, res.Err))
}

// CredentialIdentity asks Dagu whose the credential ctx carries is (GET
// /auth/me): the user's ID, which for an API key is "api_key:<id>" (1.29
// to 2.x: "apikey:<id>"), and for a login token the user's own ID, so
// every login of one user names one identity. It returns "" when Dagu
// cannot say (1.17 has no such route) or the read fails: the caller is
// then known by its credential alone.
//
// In passthrough it is also Dagu's word on what the credential may see
// (its role and workspace access), which every cached answer the
// credential reads is tied to (grantBook): a word that differs from the
// last drops the credential's cached answers on every replica, and a
// confirmation opens them for the re-check period. A release without the
// route (1.17, no workspaces) confirms by accepting the key; a failed read
// confirms nothing, so the caches are passed by until a check succeeds.
func (a *Adapter) CredentialIdentity(ctx context.Context) string {
	credential := a.client.Fingerprint(ctx)
	user, err := a.client.CurrentUser(ctx)
	if err != nil {
		a.log.DebugContext(ctx, "Dagu did not say whose the caller's credential is", "error", err)
		if restclient.IsRouteMissing(err) {
			a.grants.confirm(ctx, credential, grantEpoch(nil))
		}
		return ""
	}
	a.grants.confirm(ctx, credential, grantEpoch(user))
	return user.Id
}
