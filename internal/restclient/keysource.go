// SPDX-License-Identifier: Apache-2.0

package restclient

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"
)

// KeySource supplies the Dagu API key. Implementations must be safe for
// concurrent use and must never log the key.
type KeySource interface {
	// Key returns the current key; "" means send no credentials.
	Key() (string, error)
	// Fingerprint identifies the current key without revealing it (see
	// KeyFingerprint); caches use it to keep answers per credential.
	Fingerprint() string
}

// KeyFingerprint returns the first 32 hex digits (128 bits) of the key's
// SHA-256, or "anon" for the empty key. It names cache entries locally and
// in the shared store, so fewer bits would let two keys' entries collide.
func KeyFingerprint(key string) string {
	if key == "" {
		return "anon"
	}
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:fingerprintBytes])
}

// fingerprintBytes is how much of the SHA-256 a fingerprint keeps.
const fingerprintBytes = 16

// StaticKey is a fixed key.
type StaticKey string

// Key returns the key with surrounding whitespace trimmed.
func (k StaticKey) Key() (string, error) { return strings.TrimSpace(string(k)), nil }

// Fingerprint identifies the key.
func (k StaticKey) Fingerprint() string { return KeyFingerprint(strings.TrimSpace(string(k))) }

// keyRecheckInterval bounds how often FileKeySource looks at the file.
const keyRecheckInterval = time.Second

// FileKeySource reads the key from a file and re-reads it when the file
// changes (another inode, mtime or size), looking at most once a second. It
// follows symlinks, so a Kubernetes secret volume's atomic symlink swap is
// picked up. If a re-read fails after a key was loaded, the last key stays
// in use.
type FileKeySource struct {
	path string
	now  func() time.Time

	mu        sync.Mutex
	key       string
	info      os.FileInfo
	checkedAt time.Time
	loaded    bool
}

// FileKey returns a KeySource that reads the key from path.
func FileKey(path string) *FileKeySource {
	return &FileKeySource{path: path, now: time.Now}
}

// Key returns the file's content with surrounding whitespace trimmed.
func (f *FileKeySource) Key() (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	now := f.now()
	if f.loaded && now.Sub(f.checkedAt) < keyRecheckInterval {
		return f.key, nil
	}
	f.checkedAt = now
	if err := f.refresh(); err != nil {
		if f.loaded {
			return f.key, nil
		}
		return "", err
	}
	return f.key, nil
}

// Fingerprint identifies the current key; "anon" when it cannot be read.
func (f *FileKeySource) Fingerprint() string {
	key, err := f.Key()
	if err != nil {
		return "anon"
	}
	return KeyFingerprint(key)
}

// refresh re-reads the file when it changed since the last read.
func (f *FileKeySource) refresh() error {
	info, err := os.Stat(f.path)
	if err != nil {
		return keyFileError(err)
	}
	if f.loaded && sameFileVersion(f.info, info) {
		return nil
	}
	raw, err := os.ReadFile(f.path)
	if err != nil {
		return keyFileError(err)
	}
	f.key = strings.TrimSpace(string(raw))
	f.info = info
	f.loaded = true
	return nil
}

func sameFileVersion(a, b os.FileInfo) bool {
	return os.SameFile(a, b) && a.ModTime().Equal(b.ModTime()) && a.Size() == b.Size()
}

// keyFileError describes a key file failure without echoing file content.
func keyFileError(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("api key file %s: %w", pe.Path, pe.Err)
	}
	return fmt.Errorf("api key file: %w", err)
}
