// SPDX-License-Identifier: Apache-2.0

package fakedagu

import (
	"fmt"
	"strings"
)

// Profile names the Dagu release the fake imitates. Each profile serves the
// routes, status codes, content types and body shapes recorded against that
// release; the zero value is ProfileCurrent.
type Profile string

// The releases the fake can imitate.
const (
	// ProfileCurrent imitates the current Dagu (REST under /api/v1); it is
	// the default.
	ProfileCurrent Profile = "current"
	// Profile26 imitates Dagu 2.6 (recorded against 2.6.5).
	Profile26 Profile = "2.6"
	// Profile20 imitates Dagu 2.0 (recorded against 2.0.0).
	Profile20 Profile = "2.0"
	// Profile129 imitates Dagu 1.29 (recorded against 1.29.2; REST under
	// /api/v2).
	Profile129 Profile = "1.29"
	// Profile117 imitates Dagu 1.17 (recorded against 1.17.4; REST under
	// /api/v2 plus a legacy /api/v1, one static token).
	Profile117 Profile = "1.17"
)

// profileOrder lists the profiles newest first.
var profileOrder = []Profile{ProfileCurrent, Profile26, Profile20, Profile129, Profile117}

// ProfileNames returns the accepted profile names, newest release first,
// for flag help and validation.
func ProfileNames() []string {
	out := make([]string, len(profileOrder))
	for i, p := range profileOrder {
		out[i] = string(p)
	}
	return out
}

// Profiles returns every profile, newest release first.
func Profiles() []Profile {
	return append([]Profile(nil), profileOrder...)
}

// ParseProfile turns a flag value into a Profile. It accepts the profile
// names, a leading "v" and full release numbers of the recorded releases
// ("v2.6.5", "1.17.4"); "" is ProfileCurrent.
func ParseProfile(s string) (Profile, error) {
	name := strings.TrimPrefix(strings.ToLower(strings.TrimSpace(s)), "v")
	if name == "" {
		return ProfileCurrent, nil
	}
	for _, p := range profileOrder {
		if name == string(p) || (p != ProfileCurrent && name == dialectOf(p).release) {
			return p, nil
		}
	}
	return "", fmt.Errorf("unknown Dagu profile %q (want one of %s)", s, strings.Join(ProfileNames(), ", "))
}

// String returns the profile name; the zero value prints as "current".
func (p Profile) String() string {
	if p == "" {
		return string(ProfileCurrent)
	}
	return string(p)
}

// Release returns the Dagu release the profile's recordings were made
// against ("2.6.5"), or "current".
func (p Profile) Release() string {
	return dialectOf(p).release
}
