package workbook

import (
	"bytes"
	"encoding/xml"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
)

type tableXML struct {
	Name        string `xml:"name,attr"`
	DisplayName string `xml:"displayName,attr"`
	Ref         string `xml:"ref,attr"`
}

// readTables resolves a sheet's table parts. A table is named by its
// display name, the one formulas and Excel's UI use.
func (c *container) readTables(sheet sheetEntry, relIDs []string) ([]model.SheetTable, error) {
	tables := []model.SheetTable{}
	if len(relIDs) == 0 {
		return tables, nil
	}
	rels, err := c.readRelationships(sheet.part)
	if err != nil {
		return nil, err
	}
	for _, id := range relIDs {
		part, ok := rels.byID(id)
		if !ok {
			continue
		}
		data, err := c.readPart(part, maxMetadataPartBytes)
		if err != nil {
			return nil, err
		}
		var doc tableXML
		if err := xml.NewDecoder(bytes.NewReader(data)).Decode(&doc); err != nil {
			return nil, errMalformed(c.name, err)
		}
		name := doc.DisplayName
		if name == "" {
			name = doc.Name
		}
		tables = append(tables, model.SheetTable{Name: name, Range: sheet.name + "!" + doc.Ref})
	}
	return tables, nil
}
