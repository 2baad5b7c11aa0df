// SPDX-License-Identifier: Apache-2.0

package main

import "io"

// nopReadCloser and nopWriteCloser adapt plain streams to the closers the
// MCP IO transport wants; the process owns stdin and stdout, not the SDK.
type nopReadCloser struct{ io.Reader }

func (nopReadCloser) Close() error { return nil }

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
