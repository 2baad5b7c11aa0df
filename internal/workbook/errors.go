// SPDX-License-Identifier: Apache-2.0

package workbook

import (
	"errors"
	"fmt"
	"path/filepath"
	"time"
)

// Kind classifies a profiling failure; the read tool maps it to a contract
// error code.
type Kind int

// Failure kinds.
const (
	KindInvalidInput Kind = iota + 1 // invalid_tool_input
	KindNotFound                     // resource_not_found
	KindUnavailable                  // resource_unavailable
	KindUnauthorized                 // unauthorized
)

// String names the kind for logs.
func (k Kind) String() string {
	switch k {
	case KindInvalidInput:
		return "invalid_input"
	case KindNotFound:
		return "not_found"
	case KindUnavailable:
		return "unavailable"
	case KindUnauthorized:
		return "unauthorized"
	}
	return "unknown"
}

// Input fields an *Error can name.
const (
	FieldPath     = "path"
	FieldPassword = "password"
)

// Error is a profiling failure. Message is agent-facing: it names the file
// by its base name and never carries the password. Cause is for logs.
type Error struct {
	Kind    Kind
	Field   string
	Message string
	Cause   error
	// RetryAfter, when set, is how long to wait before trying again.
	RetryAfter time.Duration
}

// Error returns the agent-facing message.
func (e *Error) Error() string { return e.Message }

// Unwrap returns the underlying cause, if any.
func (e *Error) Unwrap() error { return e.Cause }

// AsError returns err as an *Error when it is one (or wraps one).
func AsError(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}

func pathError(kind Kind, cause error, format string, args ...any) *Error {
	return &Error{Kind: kind, Field: FieldPath, Message: fmt.Sprintf(format, args...), Cause: cause}
}

func errUnsupportedExtension() *Error {
	return pathError(KindInvalidInput, nil,
		"only .xlsx and .xlsm workbooks are supported; save as .xlsx")
}

func errRelativePath() *Error {
	return pathError(KindInvalidInput, nil,
		"path must be absolute or start with ~ (the gateway's home directory); a relative path has no meaning on the gateway")
}

func errNotFound(name string, cause error) *Error {
	return pathError(KindNotFound, cause, "%s: workbook not found", name)
}

func errOutsideRoots(name string) *Error {
	return pathError(KindUnauthorized, nil,
		"%s: workbook is outside the directories the gateway may read (--workbook-root)", name)
}

func errUnreadable(name string, cause error) *Error {
	return pathError(KindUnavailable, cause, "%s: workbook cannot be read by the gateway", name)
}

func errNotWorkbook(name string, cause error) *Error {
	return pathError(KindUnavailable, cause,
		"%s: file is not a valid .xlsx/.xlsm workbook (not an Office Open XML zip package)", name)
}

func errHeld(name, lockName string) *Error {
	return pathError(KindUnavailable, nil,
		"%s: workbook is open in another program (lock file %s beside it); close it and retry", name, lockName)
}

func errPassword(name string) *Error {
	return &Error{Kind: KindInvalidInput, Field: FieldPassword,
		Message: fmt.Sprintf("%s: workbook password is missing or incorrect", name)}
}

// errEncryption names the scheme of an encrypted package excelize cannot
// decrypt, and why.
func errEncryption(name string, scheme encryptionScheme) *Error {
	return pathError(KindUnavailable, nil,
		"%s: workbook is protected with %s, which the gateway cannot decrypt (%s); "+
			"save it with Excel's own password protection (File > Info > Protect Workbook > Encrypt with Password) or without a password",
		name, scheme.name, scheme.why)
}

func errRightsManaged(name string) *Error {
	return pathError(KindUnavailable, nil,
		"%s: workbook is protected with rights management (IRM), which only Office with its rights server can open; "+
			"save a copy without the restriction", name)
}

func errLegacyXLS(name string) *Error {
	return pathError(KindUnavailable, nil,
		"%s: file is a legacy Excel 97-2003 workbook (.xls) with an .xlsx name, not an Office Open XML package; "+
			"open it in Excel and save it as .xlsx", name)
}

func errCompoundNotWorkbook(name string) *Error {
	return pathError(KindUnavailable, nil,
		"%s: file is not a valid .xlsx/.xlsm workbook: it is an OLE compound file that holds neither an encrypted workbook nor a workbook",
		name)
}

func errNoWorkbookPart(name string) *Error {
	return pathError(KindUnavailable, nil,
		"%s: file is a zip package but not a workbook: it has no workbook part (no officeDocument relationship, and no xl/workbook.xml)",
		name)
}

func errTooLarge(name string, size, limit int64) *Error {
	return pathError(KindUnavailable, nil,
		"%s: workbook is %s, over the gateway's file size limit of %s (--workbook-max-bytes)",
		name, formatBytes(size), formatBytes(limit))
}

func errUnzipLimit(name string, limit int64) *Error {
	return pathError(KindUnavailable, nil,
		"%s: workbook expands to more than the gateway's uncompressed size limit of %s",
		name, formatBytes(limit))
}

func errPartLimit(name, part string, limit int64) *Error {
	return pathError(KindUnavailable, nil,
		"%s: workbook part %s is larger than the gateway's limit of %s for it",
		name, filepath.Base(part), formatBytes(limit))
}

func errMemoryLimit(name string, limit int64) *Error {
	return pathError(KindUnavailable, nil,
		"%s: the workbook needs more memory than the gateway allows for one read (limit %s, --workbook-max-memory); "+
			"remove unused sheets, styles or text, split the workbook, or ask the operator to raise the limit",
		name, formatBytes(limit))
}

func errReadVolume(name string) *Error {
	return pathError(KindUnavailable, nil,
		"%s: workbook makes the gateway read its parts over and over (several sheets or tables share one part); it cannot be profiled",
		name)
}

// errBusy reports a read that found no slot free to it until its context
// ended, with the wait to take before trying again. It names no field:
// the input is not at fault. ownFault says the caller's own reads held
// its part of the slots.
func errBusy(slots int, ownFault bool, cause error) *Error {
	if ownFault {
		return &Error{Kind: KindUnavailable, Cause: cause, RetryAfter: busyRetryAfter, Message: fmt.Sprintf(
			"your workbook reads in progress hold your part of the gateway's %d workbook slots (--workbook-concurrency); "+
				"wait for them to finish, or try again after details.retryAfterMs",
			slots)}
	}
	return &Error{Kind: KindUnavailable, Cause: cause, RetryAfter: busyRetryAfter, Message: fmt.Sprintf(
		"too many workbook reads in progress (the gateway runs at most %d at once, --workbook-concurrency); try again after details.retryAfterMs",
		slots)}
}

// errDamaged names the part at fault and what is wrong with it.
func errDamaged(name, part string, cause error) *Error {
	return pathError(KindUnavailable, cause, "%s: workbook is damaged and cannot be profiled: part %s: %s",
		name, spellPartName(part), damageText(cause))
}

func errZipDirectory(name string, cause error) *Error {
	return pathError(KindUnavailable, cause,
		"%s: workbook is damaged and cannot be profiled: its zip directory cannot be read (%s)", name, damageText(cause))
}

func errAmbiguousPart(name, part string, n int) *Error {
	return pathError(KindUnavailable, nil,
		"%s: workbook is ambiguous and cannot be profiled: the package holds %d different parts named %s "+
			"(part names compare without case) and none is spelt as its relationships name it", name, n, part)
}

// formatBytes renders a byte count with a binary unit, like "50 MiB".
func formatBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d bytes", n)
	}
	units := []string{"KiB", "MiB", "GiB", "TiB"}
	value, i := float64(n)/unit, 0
	for value >= unit && i < len(units)-1 {
		value /= unit
		i++
	}
	if value == float64(int64(value)) {
		return fmt.Sprintf("%d %s", int64(value), units[i])
	}
	return fmt.Sprintf("%.1f %s", value, units[i])
}
