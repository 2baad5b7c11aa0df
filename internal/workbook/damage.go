// SPDX-License-Identifier: Apache-2.0

package workbook

import (
	"archive/zip"
	"compress/flate"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
)

// formatError is a fault the gateway's own parsers found in a part. Its
// text is written here, quotes at most a short cut of the input, and is
// safe to show an agent.
type formatError struct{ msg string }

func (e *formatError) Error() string { return e.msg }

// badFormat builds a formatError.
func badFormat(format string, args ...any) error {
	return &formatError{msg: fmt.Sprintf(format, args...)}
}

// maxQuotedBytes is the most of an input's bytes a message quotes.
const maxQuotedBytes = 32

// quoteCut quotes the first maxQuotedBytes of b, marking a cut with "…".
func quoteCut(b []byte) string {
	if len(b) <= maxQuotedBytes {
		return strconv.Quote(string(b))
	}
	return strconv.Quote(string(b[:maxQuotedBytes])) + "…"
}

// readFailure classifies an error met while reading a part: the read's
// end (context errors and errTimeUp) and the gateway's own refusals pass
// through, anything else means the part is damaged, and says how.
func (c *container) readFailure(part string, err error) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	if _, ok := AsError(err); ok {
		return err
	}
	return errDamaged(c.name, part, err)
}

// damageText says, for an agent, what is wrong with a part: the gateway's
// own parsers say it themselves, the zip and deflate errors archive/zip
// reports are named by their type, anything else is unreadable.
func damageText(err error) string {
	var format *formatError
	var corrupt flate.CorruptInputError
	switch {
	case errors.As(err, &format):
		return format.msg
	case errors.Is(err, errPartMissing):
		return "it is missing from the package"
	case errors.As(err, &corrupt):
		return "its compressed data is corrupt"
	case errors.Is(err, zip.ErrChecksum):
		return "its data does not match its checksum"
	case errors.Is(err, zip.ErrAlgorithm):
		return "it is compressed with a method other than deflate"
	case errors.Is(err, io.ErrUnexpectedEOF):
		return "its compressed data ends too early"
	case errors.Is(err, zip.ErrFormat):
		return "its zip entry is not valid"
	}
	return "it cannot be read"
}
