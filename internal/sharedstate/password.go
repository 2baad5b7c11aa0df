// SPDX-License-Identifier: Apache-2.0

package sharedstate

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
)

// maxPasswordBytes bounds the password file read.
const maxPasswordBytes = 4096

// passwordFile reads the Redis password from a file. A failed re-read
// keeps the last password that was read.
type passwordFile struct {
	path string

	mu   sync.Mutex
	last string
	ok   bool
}

func newPasswordFile(path string) *passwordFile { return &passwordFile{path: path} }

// read returns the file's content with surrounding whitespace trimmed.
func (p *passwordFile) read() (string, error) {
	pw, err := readPassword(p.path)
	p.mu.Lock()
	defer p.mu.Unlock()
	if err != nil {
		if p.ok {
			return p.last, nil
		}
		return "", err
	}
	p.last, p.ok = pw, true
	return pw, nil
}

func readPassword(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("shared state password file: %w", err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxPasswordBytes+1))
	if err != nil {
		return "", fmt.Errorf("shared state password file: %w", err)
	}
	if len(b) > maxPasswordBytes {
		return "", fmt.Errorf("shared state password file %s: longer than %d bytes", path, maxPasswordBytes)
	}
	pw := strings.TrimSpace(string(b))
	if pw == "" {
		return "", errors.New("shared state password file " + path + " is empty")
	}
	return pw, nil
}
