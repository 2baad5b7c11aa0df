package workbook

import (
	"bytes"
	"encoding/xml"
	"errors"
	"strconv"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
)

// sheetEntry is one sheet listed by the workbook part, in workbook order.
type sheetEntry struct {
	name   string
	hidden bool   // hidden or very hidden
	part   string // resolved part name
}

// workbookMeta is what the workbook part and its relationships say.
type workbookMeta struct {
	sheets      []sheetEntry
	date1904    bool
	names       []model.NamedRange
	stylesPart  string
	stringsPart string
}

type workbookXML struct {
	Properties struct {
		Date1904 string `xml:"date1904,attr"`
	} `xml:"workbookPr"`
	Sheets []struct {
		Name  string `xml:"name,attr"`
		State string `xml:"state,attr"`
		RelID string `xml:"id,attr"`
	} `xml:"sheets>sheet"`
	DefinedNames []struct {
		Name       string `xml:"name,attr"`
		LocalSheet string `xml:"localSheetId,attr"`
		Hidden     string `xml:"hidden,attr"`
		RefersTo   string `xml:",chardata"`
	} `xml:"definedNames>definedName"`
}

// readWorkbookMeta finds the workbook part through the package
// relationships and reads its sheets, date system and defined names. A zip
// without a workbook part is not a workbook.
func (c *container) readWorkbookMeta() (*workbookMeta, error) {
	rootRels, err := c.readRelationships("")
	if err != nil {
		return nil, err
	}
	wbPart, ok := rootRels.byType(relOfficeDocument)
	if !ok {
		wbPart = "xl/workbook.xml"
	}
	if _, ok := c.part(wbPart); !ok {
		return nil, errNotWorkbook(c.name, errors.New("no workbook part"))
	}
	data, err := c.readPart(wbPart, maxMetadataPartBytes)
	if err != nil {
		return nil, err
	}
	var doc workbookXML
	if err := xml.NewDecoder(bytes.NewReader(data)).Decode(&doc); err != nil {
		return nil, errMalformed(c.name, err)
	}
	rels, err := c.readRelationships(wbPart)
	if err != nil {
		return nil, err
	}
	meta := &workbookMeta{date1904: isTrue([]byte(doc.Properties.Date1904))}
	meta.stylesPart, _ = rels.byType(relStyles)
	meta.stringsPart, _ = rels.byType(relSharedStrings)
	for _, s := range doc.Sheets {
		part, ok := rels.byID(s.RelID)
		if !ok {
			return nil, errMalformed(c.name, errors.New("sheet "+strconv.Quote(s.Name)+" has no part"))
		}
		meta.sheets = append(meta.sheets, sheetEntry{
			name: s.Name, hidden: s.State == "hidden" || s.State == "veryHidden", part: part,
		})
	}
	meta.names = definedNames(&doc, meta.sheets)
	return meta, nil
}

// definedNames lists the workbook's visible defined names; hidden ones are
// Excel's own bookkeeping (such as a filter's database range).
func definedNames(doc *workbookXML, sheets []sheetEntry) []model.NamedRange {
	names := []model.NamedRange{}
	for _, dn := range doc.DefinedNames {
		if isTrue([]byte(dn.Hidden)) {
			continue
		}
		scope := model.NameScopeWorkbook
		if idx, err := strconv.Atoi(dn.LocalSheet); err == nil && idx >= 0 && idx < len(sheets) {
			scope = sheets[idx].name
		}
		names = append(names, model.NamedRange{Name: dn.Name, RefersTo: dn.RefersTo, Scope: scope})
	}
	return names
}
