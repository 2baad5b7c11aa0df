// SPDX-License-Identifier: Apache-2.0

// Package reference serves the Markdown reference topics the dagu_read tool
// returns at dagu://reference/{topic}.
//
// The topics are written for AI agents working with Dagu and are embedded in
// the binary. An operator can point Options.Dir at a directory of
// <topic>.md files: a file named after a built-in topic replaces it, and any
// other file with a valid topic name becomes an extra topic, listed after the
// built-in ones. Directory reads are cached for Options.TTL, so edits show up
// without a restart.
//
// Topic names must match ^[a-z0-9][a-z0-9-]{0,63}$. A name is checked before
// any file is touched, and files are opened through an os.Root, so no name
// and no symbolic link can reach outside the directory.
package reference
