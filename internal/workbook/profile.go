// SPDX-License-Identifier: Apache-2.0

package workbook

import (
	"context"
	"errors"
	"path/filepath"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
)

// Profile reads the workbook at path (absolute or starting with ~) and
// returns its profile. password opens a protected workbook and is used
// for nothing else. Failures the read tool reports are *Error. A read
// stops a little before ctx's deadline (see answerMargin) with an *Error
// that says where it stopped and what to narrow; one whose ctx is
// cancelled (its caller went away) stops at once with ctx.Err(); one that
// finds every slot taken (see Config.Concurrency) until its stop time is
// an unavailable *Error.
func (p *Profiler) Profile(ctx context.Context, path, password string) (*model.Workbook, error) {
	wb, _, err := p.profile(ctx, path, password)
	return wb, err
}

// read is one workbook read under way.
type read struct {
	target   *target
	password string
	mem      *memoryBudget
	clock    *readClock
	at       *progress
	slot     *slotHold
}

// profile is Profile that also returns the read's memory budget, for
// tests that check its accounting.
func (p *Profiler) profile(ctx context.Context, path, password string) (*model.Workbook, *memoryBudget, error) {
	clock, at := newReadClock(ctx), &progress{}
	if err := clock.check(); err != nil {
		return nil, nil, outOfTime(filepath.Base(path), err, at)
	}
	t, err := p.resolveTarget(path)
	if err != nil {
		return nil, nil, err
	}
	slot, err := p.acquire(clock)
	if err != nil {
		return nil, nil, err
	}
	defer slot.release()
	r := &read{target: t, password: password, mem: newMemoryBudget(p.maxMemory, t.name), clock: clock, at: at, slot: slot}
	wb, err := p.readWorkbook(r)
	return wb, r.mem, outOfTime(t.name, err, at)
}

func (p *Profiler) readWorkbook(r *read) (*model.Workbook, error) {
	r.at.stage = stageOpen
	c, err := p.openContainer(r)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	return p.profileContainer(c, r.target.resolved)
}

func (p *Profiler) profileContainer(c *container, resolved string) (*model.Workbook, error) {
	c.at.stage = stageWorkbook
	meta, err := c.readWorkbookMeta()
	if err == nil {
		// A read that ran out of time here says so, not that it stopped in
		// the first sheet.
		err = c.clock.check()
	}
	if err != nil {
		return nil, err
	}
	typer, err := c.cellTyper(meta)
	if err == nil {
		err = c.clock.check()
	}
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
	profiled := min(len(meta.sheets), p.maxSheets)
	for i, sheet := range meta.sheets {
		if i >= p.maxSheets {
			wb.Sheets = append(wb.Sheets, skippedSheet(sheet))
			continue
		}
		*c.at = progress{stage: stageSheet, sheet: sheet.name, index: i + 1, sheets: profiled}
		if err := c.clock.check(); err != nil {
			return nil, err
		}
		profile, err := p.profileSheet(c, sheet, typer, meta, &warn)
		if err != nil {
			return nil, err
		}
		wb.Sheets = append(wb.Sheets, profile)
	}
	p.workbookWarnings(meta, &warn)
	notes := c.notes
	notes.merge(&warn)
	wb.Warnings = notes.result()
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
func (c *container) cellTyper(meta *workbookMeta) (*cellTyper, error) {
	formats, err := c.readFormats(meta.stylesPart)
	if err != nil {
		return nil, err
	}
	c.at.stage = stageStrings
	shared, err := c.readSharedStrings(meta.stringsPart)
	if err != nil {
		return nil, err
	}
	return &cellTyper{date1904: meta.date1904, formats: formats, strings: shared}, nil
}

// readSharedStrings streams the shared string table into memory, within
// its own size bound and the read's budget; a workbook without one has no
// shared strings.
func (c *container) readSharedStrings(part string) (*sharedStrings, error) {
	if !c.hasPart(part) {
		return &sharedStrings{}, nil
	}
	rc, err := c.openPart(part, maxSharedStringsBytes)
	if err != nil {
		return nil, c.readFailure(part, err)
	}
	defer rc.Close()
	table, err := readSharedStrings(c.clock.ctx, rc, c.mem)
	if err != nil {
		return nil, c.readFailure(part, err)
	}
	return table, nil
}

// profileSheet scans one sheet, twice when its header can only be found
// after a first scan, and reads its tables. A sheet whose part cannot be
// found, or is damaged, is listed by name with a warning that says why.
func (p *Profiler) profileSheet(c *container, sheet sheetEntry, typer *cellTyper, meta *workbookMeta, warn *warnings) (model.WorkbookSheet, error) {
	if sheet.problem == "" && !c.hasPart(sheet.part) {
		sheet.problem = "its part " + spellPartName(sheet.part) + " is missing from the package"
	}
	if sheet.problem != "" {
		warn.addf("%s: not profiled: %s; the sheet is listed by name only", sheet.name, sheet.problem)
		return skippedSheet(sheet), nil
	}
	scan, tableIDs, err := p.scanSheet(c, sheet, typer, 0)
	if err == nil && scan.needsHeaderRescan() {
		scan.release()
		scan, _, err = p.scanSheet(c, sheet, typer, scan.firstValueRow)
	}
	if isDamage(err) {
		warn.addf("%s: not profiled: its part %s is damaged: %s; the sheet is listed by name only",
			sheet.name, spellPartName(sheet.part), damageText(err))
		return skippedSheet(sheet), nil
	}
	if err != nil {
		return model.WorkbookSheet{}, c.readFailure(sheet.part, err)
	}
	out, err := scan.result(warn)
	scan.release()
	if err != nil {
		return model.WorkbookSheet{}, err
	}
	out.Name, out.Hidden = sheet.name, sheet.hidden
	if out.Tables, err = c.readTables(sheet, tableIDs, &meta.cutNames, warn); err != nil {
		return model.WorkbookSheet{}, err
	}
	if len(tableIDs) >= maxTableParts {
		warn.addf("%s: the gateway reads at most %d tables of a sheet; any others are not listed", sheet.name, maxTableParts)
	}
	return out, nil
}

// isDamage reports an error that says the part read is damaged: not the
// read's end, and not one of the gateway's refusals (limits, ambiguity).
func isDamage(err error) bool {
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false
	}
	_, refusal := AsError(err)
	return !refusal
}

// scanSheet runs one scan over a sheet part; the caller releases the scan.
// The table ids it returns stay reserved for the read. Its errors are
// unclassified: the caller tells damage from the read's end.
func (p *Profiler) scanSheet(c *container, sheet sheetEntry, typer *cellTyper, fixedHeader int) (*sheetScan, []string, error) {
	rc, err := c.openPart(sheet.part, 0)
	if err != nil {
		return nil, nil, err
	}
	defer rc.Close()
	rows := newSheetReader(rc, c.mem)
	defer rows.close()
	scan := newSheetScan(sheet.name, typer, c.mem, p.maxRows, fixedHeader)
	scan.at = c.at
	if err := scan.run(c.clock.check, rows); err != nil {
		scan.release()
		return nil, nil, err
	}
	tableIDs, err := rows.tableRelationIDs()
	if err != nil {
		scan.release()
		return nil, nil, err
	}
	return scan, tableIDs, nil
}

func skippedSheet(sheet sheetEntry) model.WorkbookSheet {
	return model.WorkbookSheet{
		Name: sheet.name, Hidden: sheet.hidden, Skipped: true,
		Headers: []string{}, Types: model.ColumnTypes{}, Columns: []model.ColumnProfile{},
		Tables: []model.SheetTable{},
	}
}
