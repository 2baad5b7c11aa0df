// SPDX-License-Identifier: Apache-2.0

//go:build race

package workbook

// Under the race detector, inflating hundreds of MiB takes minutes, so the
// hostile workbooks of the limit tests shrink by raceShrink (their shape
// and the properties checked stay the same).
const raceShrink = 16
