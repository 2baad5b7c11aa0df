// SPDX-License-Identifier: Apache-2.0

package readtool

import (
	"context"
	"log/slog"
	"time"
)

func (t *Tool) readWorkbook(ctx context.Context, c *call) (any, error) {
	if t.books == nil {
		return nil, newError(CodeResourceUnavailable, "Workbook profiling is not enabled on this gateway.")
	}
	path := c.in.get(fPath)
	start := time.Now()
	wb, err := t.books.Profile(ctx, path, c.in.get(fPassword))
	t.audit(ctx, "workbook_read",
		slog.String("workbook_path", path),
		slog.Bool("password_supplied", c.in.has(fPassword)),
		slog.Bool("ok", err == nil),
		slog.Float64("duration_ms", durationMS(time.Since(start))))
	return wb, err
}

// audit writes one audit record. Until a dedicated audit sink exists the
// record is a structured log line tagged audit=true. Callers never pass the
// workbook password.
func (t *Tool) audit(ctx context.Context, event string, attrs ...slog.Attr) {
	attrs = append([]slog.Attr{slog.Bool("audit", true), slog.String("event", event)}, attrs...)
	t.log.LogAttrs(ctx, slog.LevelInfo, "audit", attrs...)
}
