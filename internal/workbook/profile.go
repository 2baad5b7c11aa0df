// SPDX-License-Identifier: Apache-2.0

package workbook

import (
	"context"
	"errors"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
)

// Profile reads the workbook at path (absolute or starting with ~) and
// returns its profile. password opens a protected workbook and is used
// for nothing else. Failures the read tool reports are *Error; a ctx
// already cancelled or expired returns ctx.Err(), one that ends while the
// read waits for a slot (see Config.Concurrency) an unavailable *Error,
// and one that ends during the read ctx.Err().
func (p *Profiler) Profile(ctx context.Context, path, password string) (*model.Workbook, error) {
	wb, _, err := p.profile(ctx, path, password)
	return wb, err
}

// profile is Profile that also returns the read's memory budget, for
// tests that check its accounting.
func (p *Profiler) profile(ctx context.Context, path, password string) (*model.Workbook, *memoryBudget, error) {
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	t, err := p.resolveTarget(path)
	if err != nil {
		return nil, nil, err
	}
	if err := p.acquire(ctx); err != nil {
		return nil, nil, err
	}
	defer p.slots.Release(1)
	mem := newMemoryBudget(p.maxMemory, t.name)
	c, err := p.openContainer(t, password, mem)
	if err != nil {
		return nil, mem, err
	}
	defer c.Close()
	wb, err := p.profileContainer(ctx, c, t.resolved)
	return wb, mem, err
}

func (p *Profiler) profileContainer(ctx context.Context, c *container, resolved string) (*model.Workbook, error) {
	meta, err := c.readWorkbookMeta()
	if err != nil {
		return nil, err
	}
	typer, err := c.cellTyper(ctx, meta)
	if err != nil {
		return nil, err
	}
	wb := &model.Workbook{
		Path: resolved, DateSystem: model.DateSystem1900,
		Sheets: make([]model.WorkbookSheet, 0, len(meta.sheets)), NamedRanges: meta.names,
	}
	if meta.date1904 {
		wb.DateSystem = model.DateSystem1904
	}
	var warn warnings
	for i, sheet := range meta.sheets {
		if i >= p.maxSheets {
			wb.Sheets = append(wb.Sheets, skippedSheet(sheet))
			continue
		}
		profile, err := p.profileSheet(ctx, c, sheet, typer, meta, &warn)
		if err != nil {
			return nil, err
		}
		wb.Sheets = append(wb.Sheets, profile)
	}
	p.workbookWarnings(meta, &warn)
	wb.Warnings = warn.result()
	return wb, nil
}

// workbookWarnings adds the warnings about the workbook as a whole.
func (p *Profiler) workbookWarnings(meta *workbookMeta, warn *warnings) {
	if skipped := len(meta.sheets) - p.maxSheets; skipped > 0 {
		warn.addf("workbook has %d sheets; only the first %d were profiled (the gateway's sheet limit), the other %d are listed by name only",
			len(meta.sheets), p.maxSheets, skipped)
	}
	if meta.cutNames > 0 {
		warn.addf("%d sheet, table or defined names or formulas hold more than %d characters; the profile shows their first %d followed by %s",
			meta.cutNames, maxTextRunes, maxTextRunes, textCutMarker)
	}
}

// cellTyper loads what typing cells needs: number formats and shared strings.
func (c *container) cellTyper(ctx context.Context, meta *workbookMeta) (*cellTyper, error) {
	formats, err := c.readFormats(meta.stylesPart)
	if err != nil {
		return nil, err
	}
	shared, err := c.readSharedStrings(ctx, meta.stringsPart)
	if err != nil {
		return nil, err
	}
	return &cellTyper{date1904: meta.date1904, formats: formats, strings: shared}, nil
}

// readSharedStrings streams the shared string table into memory, within
// its own size bound and the read's budget; a workbook without one has no
// shared strings.
func (c *container) readSharedStrings(ctx context.Context, part string) (*sharedStrings, error) {
	if _, ok := c.part(part); part == "" || !ok {
		return &sharedStrings{}, nil
	}
	rc, err := c.openPart(part, maxSharedStringsBytes)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	table, err := readSharedStrings(ctx, rc, c.mem)
	if err != nil {
		return nil, c.readFailure(err)
	}
	return table, nil
}

// profileSheet scans one sheet, twice when its header can only be found
// after a first scan, and reads its tables.
func (p *Profiler) profileSheet(ctx context.Context, c *container, sheet sheetEntry, typer *cellTyper, meta *workbookMeta, warn *warnings) (model.WorkbookSheet, error) {
	scan, tableIDs, err := p.scanSheet(ctx, c, sheet, typer, 0)
	if err == nil && scan.needsHeaderRescan() {
		scan.release()
		scan, _, err = p.scanSheet(ctx, c, sheet, typer, scan.firstValueRow)
	}
	if err != nil {
		return model.WorkbookSheet{}, err
	}
	out, err := scan.result(warn)
	scan.release()
	if err != nil {
		return model.WorkbookSheet{}, err
	}
	out.Name, out.Hidden = sheet.name, sheet.hidden
	if out.Tables, err = c.readTables(sheet, tableIDs, &meta.cutNames); err != nil {
		return model.WorkbookSheet{}, err
	}
	if len(tableIDs) >= maxTableParts {
		warn.addf("%s: the gateway reads at most %d tables of a sheet; any others are not listed", sheet.name, maxTableParts)
	}
	return out, nil
}

// scanSheet runs one scan over a sheet part; the caller releases the scan.
// The table ids it returns stay reserved for the read.
func (p *Profiler) scanSheet(ctx context.Context, c *container, sheet sheetEntry, typer *cellTyper, fixedHeader int) (*sheetScan, []string, error) {
	rc, err := c.openPart(sheet.part, 0)
	if err != nil {
		return nil, nil, err
	}
	defer rc.Close()
	rows := newSheetReader(rc, c.mem)
	defer rows.close()
	scan := newSheetScan(sheet.name, typer, c.mem, p.maxRows, fixedHeader)
	if err := scan.run(ctx, rows); err != nil {
		scan.release()
		return nil, nil, c.readFailure(err)
	}
	tableIDs, err := rows.tableRelationIDs()
	if err != nil {
		scan.release()
		return nil, nil, c.readFailure(err)
	}
	return scan, tableIDs, nil
}

// readFailure classifies an error met while streaming a part: context
// errors pass through, anything else means a damaged package.
func (c *container) readFailure(err error) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	if _, ok := AsError(err); ok {
		return err
	}
	return errMalformed(c.name, err)
}

func skippedSheet(sheet sheetEntry) model.WorkbookSheet {
	return model.WorkbookSheet{
		Name: sheet.name, Hidden: sheet.hidden, Skipped: true,
		Headers: []string{}, Types: model.ColumnTypes{}, Columns: []model.ColumnProfile{},
		Tables: []model.SheetTable{},
	}
}
