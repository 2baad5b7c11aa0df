package workbook

import (
	"context"
	"errors"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
)

// Profile reads the workbook at path (absolute or starting with ~) and
// returns its profile. password opens a protected workbook and is used
// for nothing else. Failures the read tool reports are *Error; a cancelled
// or expired ctx returns ctx.Err().
func (p *Profiler) Profile(ctx context.Context, path, password string) (*model.Workbook, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	t, err := p.resolveTarget(path)
	if err != nil {
		return nil, err
	}
	c, err := p.openContainer(t, password)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	return p.profileContainer(ctx, c, t.resolved)
}

func (p *Profiler) profileContainer(ctx context.Context, c *container, resolved string) (*model.Workbook, error) {
	meta, err := c.readWorkbookMeta()
	if err != nil {
		return nil, err
	}
	typer, err := c.cellTyper(meta)
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
		profile, err := p.profileSheet(ctx, c, sheet, typer, &warn)
		if err != nil {
			return nil, err
		}
		wb.Sheets = append(wb.Sheets, profile)
	}
	if skipped := len(meta.sheets) - p.maxSheets; skipped > 0 {
		warn.addf("workbook has %d sheets; only the first %d were profiled (the gateway's sheet limit), the other %d are listed by name only",
			len(meta.sheets), p.maxSheets, skipped)
	}
	wb.Warnings = warn.result()
	return wb, nil
}

// cellTyper loads what typing cells needs: number formats and shared strings.
func (c *container) cellTyper(meta *workbookMeta) (*cellTyper, error) {
	formats, err := c.readFormats(meta.stylesPart)
	if err != nil {
		return nil, err
	}
	shared, err := c.readSharedStrings(meta.stringsPart)
	if err != nil {
		return nil, err
	}
	return &cellTyper{date1904: meta.date1904, formats: formats, strings: shared}, nil
}

// readFormats reads the styles part; without one every cell shows numbers.
func (c *container) readFormats(part string) (cellFormats, error) {
	if _, ok := c.part(part); part == "" || !ok {
		return nil, nil
	}
	data, err := c.readPart(part, maxMetadataPartBytes)
	if err != nil {
		return nil, err
	}
	formats, err := parseStyles(data)
	if err != nil {
		return nil, errMalformed(c.name, err)
	}
	return formats, nil
}

// readSharedStrings streams the shared string table into memory, within
// its own size bound; a workbook without one has no shared strings.
func (c *container) readSharedStrings(part string) (*sharedStrings, error) {
	f, ok := c.part(part)
	if part == "" || !ok {
		return &sharedStrings{}, nil
	}
	if f.UncompressedSize64 > uint64(maxSharedStringsBytes) {
		return nil, errPartLimit(c.name, part, maxSharedStringsBytes)
	}
	rc, err := c.openPart(part)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	table, err := readSharedStrings(rc)
	if err != nil {
		return nil, c.readFailure(err)
	}
	return table, nil
}

// profileSheet scans one sheet, twice when its header can only be found
// after a first scan, and reads its tables.
func (p *Profiler) profileSheet(ctx context.Context, c *container, sheet sheetEntry, typer *cellTyper, warn *warnings) (model.WorkbookSheet, error) {
	scan, tableIDs, err := p.scanSheet(ctx, c, sheet, typer, 0)
	if err == nil && scan.needsHeaderRescan() {
		scan, _, err = p.scanSheet(ctx, c, sheet, typer, scan.firstValueRow)
	}
	if err != nil {
		return model.WorkbookSheet{}, err
	}
	out := scan.result(warn)
	out.Name, out.Hidden = sheet.name, sheet.hidden
	if out.Tables, err = c.readTables(sheet, tableIDs); err != nil {
		return model.WorkbookSheet{}, err
	}
	return out, nil
}

func (p *Profiler) scanSheet(ctx context.Context, c *container, sheet sheetEntry, typer *cellTyper, fixedHeader int) (*sheetScan, []string, error) {
	rc, err := c.openPart(sheet.part)
	if err != nil {
		return nil, nil, err
	}
	defer rc.Close()
	rows := newSheetReader(rc)
	scan := newSheetScan(sheet.name, typer, p.maxRows, fixedHeader)
	if err := scan.run(ctx, rows); err != nil {
		return nil, nil, c.readFailure(err)
	}
	tableIDs, err := rows.tableRelationIDs()
	if err != nil {
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
