// SPDX-License-Identifier: Apache-2.0

package config

import (
	"fmt"
	"strings"
)

// MinMemoryLimit is the smallest --memory-limit size accepted: a gateway
// with nothing in flight and empty caches lets its heap grow to
// --gc-heap-floor (20 MiB), so below this the collector would run
// without pause.
const MinMemoryLimit = 32 << 20

// ParseMemoryLimit reads --memory-limit: auto (the default, also when
// empty) is derived from the memory settings, off or 0 sets no limit, and
// a size (at least MinMemoryLimit) is the limit itself. It returns the
// size (0 unless one was given) and whether the limit is derived.
func ParseMemoryLimit(text string) (size int64, auto bool, err error) {
	switch s := strings.ToLower(strings.TrimSpace(text)); s {
	case "", MemoryLimitAuto:
		return 0, true, nil
	case MemoryLimitOff, "0":
		return 0, false, nil
	}
	n, err := ParseByteSize(text)
	if err != nil {
		return 0, false, fmt.Errorf("%w (or auto, or off)", err)
	}
	if n < MinMemoryLimit {
		return 0, false, fmt.Errorf("%s is below %s (use off for none)", FormatByteSize(n), FormatByteSize(MinMemoryLimit))
	}
	return n, false, nil
}
