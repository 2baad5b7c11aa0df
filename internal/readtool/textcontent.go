// SPDX-License-Identifier: Apache-2.0

package readtool

import (
	"fmt"
	"unicode/utf8"
)

// Text content modes of a successful read (Options.TextContent).
const (
	// TextContentContract is the contract's text: "Dagu read completed."
	// (with the data only for dags). The default.
	TextContentContract = "contract"
	// TextContentJSON adds the serialized data after the success text for
	// every target, for clients that pass only text content to the model.
	TextContentJSON = "json"
)

// maxTextData bounds the data a TextContentJSON text carries; the full data
// is always in structuredContent.
const maxTextData = 64 << 10

// cutText returns data as text, cut at maxTextData (on a rune boundary)
// with a note saying how much was left out.
func cutText(data []byte) string {
	if len(data) <= maxTextData {
		return string(data)
	}
	cut := maxTextData
	for cut > 0 && !utf8.RuneStart(data[cut]) {
		cut--
	}
	return string(data[:cut]) + fmt.Sprintf("\n[truncated: %d more bytes; the whole answer is in structuredContent]", len(data)-cut)
}
