// SPDX-License-Identifier: Apache-2.0

// Package workbook profiles a local Excel workbook (.xlsx or .xlsm) for the
// dagu_read `workbook` target: its sheets, the data block of each with
// typed column profiles and a typed sample, its tables, its defined names
// and its date system.
//
// The worksheet XML is streamed straight from the zip container with a
// small purpose-built tokenizer, one row at a time, so memory stays bounded
// by the operator's limits and not by the size of a sheet. excelize's own
// Rows() iterator yields display strings only (no cell type, no number
// format), which the profile's typing rules need, and its encoding/xml
// based decoding is several times slower than the benchmark allows.
// excelize still decrypts password-protected workbooks.
//
// # Hostile input
//
// A workbook is untrusted input: a file of a few hundred KiB can inflate
// to hundreds of MiB. Five bounds keep one read, and the gateway, alive:
//
//   - Memory. Everything a read keeps (the zip directory, a decrypted
//     package, the shared string table, styles, the sheet, name and
//     relationship lists, scratch buffers, the per-sheet statistics and
//     the profile itself) is reserved in bytes against one budget per read
//     (Config.MaxMemory, default 64 MiB) before it is allocated; growth is
//     by half again at most, and tables grow in fixed pages. A workbook
//     that needs more is refused as unavailable, naming the limit. Each
//     entry costs its text plus a fixed overhead, so millions of tiny
//     strings exhaust the budget as surely as a few huge ones.
//   - Answer size. Every text the profile keeps is cut to 256 characters
//     followed by "…", with a warning counting the cut texts (textcut.go).
//     Shared strings keep only that much of each string plus a hash of the
//     whole, so distinct counts stay exact (up to a 64-bit hash collision)
//     while 250 strings of 1 MiB cost about 250 KiB.
//   - Work. Parts are streamed once, a sheet at most twice; a read that
//     would inflate more than twice the package's declared size, or open
//     parts more than twice over, is refused (parts shared between sheets
//     multiply work without growing the file).
//   - Concurrency. At most Config.Concurrency reads (default 2) run at
//     once; the others wait for a slot until their stop time and are then
//     refused as unavailable. The slots are shared fairly between the
//     callers the request context names (slots.go): a freed slot goes to
//     the waiting caller that holds the fewest, so one caller's many reads
//     make only its own wait.
//   - Time. A read stops a little before its context's deadline (half a
//     second, or a tenth of the time left), so that its refusal still
//     arrives within the call's time limit and says where it stopped and
//     what to narrow; a read whose caller goes away (its context is
//     cancelled) stops at once. Every part is read through a reader that
//     looks at the read's clock before each read of inflated bytes, and
//     the work between two looks is linear in what was read (header
//     de-duplication included). excelize's decryption cannot be
//     interrupted: it runs in a goroutine of its own, which keeps the
//     read's slot until it ends, and an agile key derivation asking for
//     more than 1,000,000 hash rounds is refused before it starts.
//
// Packages are read as the format says: part names compare without case,
// and of parts that differ only in case the one spelt as the
// relationships name it wins (a package where none is, and whose twins
// differ, is refused as ambiguous); the workbook's own elements are told
// from extension elements by their namespace. A sheet whose part cannot
// be found, or is damaged, is listed by name with a warning that says why,
// and the rest of the workbook is profiled.
//
// Every failure the read tool must report is an *Error whose Kind maps to a
// contract error code; its Message is safe to show an agent and never
// carries the password.
package workbook
