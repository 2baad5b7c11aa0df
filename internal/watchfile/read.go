// SPDX-License-Identifier: Apache-2.0

// Package watchfile reads the operator's files that a running gateway
// reloads (the instances file, the access policy) and the key files they
// name: within a size bound, without ever waiting on a FIFO or a device,
// and (Watcher) again when they change or the process gets SIGHUP, a
// broken version keeping the last good one.
package watchfile

import (
	"fmt"
	"io"
	"os"
	"strings"
	"syscall"
)

// openFlags open a file without ever waiting on a FIFO or a device.
const openFlags = os.O_RDONLY | syscall.O_NONBLOCK

// Read reads what (a file's role, for messages) at path: opened without
// waiting on a FIFO or a device, judged a regular file of at most limit
// bytes on the opened descriptor, and read within that bound.
func Read(path, what string, limit int64) ([]byte, error) {
	f, err := os.OpenFile(path, openFlags, 0)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("%s %s: not a regular file (%s)", what, path, info.Mode().Type())
	}
	if info.Size() > limit {
		return nil, fmt.Errorf("%s %s: %d bytes, more than the %d it may hold", what, path, info.Size(), limit)
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err == nil && int64(len(data)) > limit {
		err = fmt.Errorf("%s %s grew past %d bytes while read", what, path, limit)
	}
	return data, err
}

// CheckKeyFile refuses a key file (field names where it was given) that
// cannot be read, is not a regular file of at most limit bytes (a FIFO
// would keep a reload waiting, /dev/zero would fill the memory), or holds
// no usable key (empty, or with spaces or control characters); the message
// never holds the key.
func CheckKeyFile(path, field string, limit int64) error {
	data, err := Read(path, field, limit)
	if err != nil {
		return err
	}
	if key := strings.TrimSpace(string(data)); key == "" || strings.ContainsFunc(key, func(r rune) bool { return r <= ' ' || r == 0x7f }) {
		return fmt.Errorf("%s %s holds no usable key (empty, or spaces or control characters)", field, path)
	}
	return nil
}
