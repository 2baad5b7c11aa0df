// SPDX-License-Identifier: Apache-2.0

//go:build !race

package workbook

// raceShrink is 1 without the race detector: the limit tests read the
// hostile workbooks at full size (see race_on_test.go).
const raceShrink = 1
