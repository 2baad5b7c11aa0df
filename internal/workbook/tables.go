// SPDX-License-Identifier: Apache-2.0

package workbook

import (
	"unsafe"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
)

// costTable is what one listed table costs beside its texts.
const costTable = int64(unsafe.Sizeof(model.SheetTable{})) + 32

// readTables resolves a sheet's table parts, each read once. A table is
// named by its display name, the one formulas and Excel's UI use. Names
// and ranges are cut like every text of the profile; cut counts them. A
// table whose part is missing or damaged is left out with a warning.
func (c *container) readTables(sheet sheetEntry, relIDs []string, cut *int, warn *warnings) ([]model.SheetTable, error) {
	tables := []model.SheetTable{}
	if len(relIDs) == 0 {
		return tables, nil
	}
	rels, err := c.readRelationships(sheet.part)
	if err != nil {
		return nil, err
	}
	parts, err := c.partsByID(rels)
	if err != nil {
		return nil, err
	}
	read := make(map[string]bool, len(relIDs))
	for _, id := range relIDs {
		part, ok := parts[id]
		if !ok || read[part] {
			continue
		}
		read[part] = true
		table, err := c.readTable(part)
		if isDamage(err) {
			warn.addf("%s: a table is not listed: part %s: %s", sheet.name, spellPartName(part), damageText(err))
			continue
		}
		if err != nil {
			return nil, err
		}
		name, nameCut := cutString(table.name)
		ref, refCut := cutString(table.ref)
		*cut += boolCount(nameCut) + boolCount(refCut)
		if err := c.mem.reserve(costTable + int64(len(name)+len(sheet.name)+len(ref)+1)); err != nil {
			return nil, err
		}
		tables = append(tables, model.SheetTable{Name: name, Range: sheet.name + "!" + ref})
	}
	return tables, nil
}

type tableAttrs struct{ name, ref string }

// readTable reads the attributes of a table part's root element (the
// `table` element), and nothing more of it. Its errors are unclassified.
func (c *container) readTable(part string) (tableAttrs, error) {
	var t tableAttrs
	rc, err := c.openPart(part, maxMetadataPartBytes)
	if err != nil {
		return t, err
	}
	defer rc.Close()
	err = scanTokens(rc, c.mem, func(sc *xmlScanner) (bool, error) {
		if sc.kind != tokenStart {
			return false, nil
		}
		t.name = attrText(sc.attrs, "displayName")
		if t.name == "" {
			t.name = attrText(sc.attrs, "name")
		}
		t.ref = attrText(sc.attrs, "ref")
		return true, nil
	})
	return t, err
}

func boolCount(b bool) int {
	if b {
		return 1
	}
	return 0
}
