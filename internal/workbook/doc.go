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
// Every failure the read tool must report is an *Error whose Kind maps to a
// contract error code; its Message is safe to show an agent and never
// carries the password.
package workbook
