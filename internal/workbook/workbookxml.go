// SPDX-License-Identifier: Apache-2.0

package workbook

import (
	"strconv"
	"unsafe"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
)

// What the sheet and name lists cost beside their texts: the entry while
// reading and its place in the profile.
const (
	costSheetEntry = int64(unsafe.Sizeof(sheetEntry{})+unsafe.Sizeof(model.WorkbookSheet{})) + 64
	costNameEntry  = int64(unsafe.Sizeof(definedName{})+unsafe.Sizeof(model.NamedRange{})) + 64
)

// sheetEntry is one sheet listed by the workbook part, in workbook order.
type sheetEntry struct {
	name   string // cut, as the profile shows it
	hidden bool   // hidden or very hidden
	part   string // resolved part name
	relID  string
	// problem says why the sheet's part cannot be found, if it cannot.
	problem string
}

// definedName is one visible defined name as the workbook part lists it.
type definedName struct {
	name, refersTo string // cut
	localSheet     int    // index of the sheet it belongs to, or -1
}

// workbookMeta is what the workbook part and its relationships say.
type workbookMeta struct {
	sheets      []sheetEntry
	date1904    bool
	names       []model.NamedRange
	stylesPart  string
	stringsPart string
	cutNames    int // sheet, table and defined names (or formulas) cut
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
	if !c.hasPart(wbPart) {
		return nil, errNoWorkbookPart(c.name)
	}
	meta := &workbookMeta{}
	wr := newWorkbookReader(c.mem, meta)
	err = c.scanPart(wbPart, wr.visit)
	wr.release()
	if err != nil {
		return nil, err
	}
	rels, err := c.readRelationships(wbPart)
	if err != nil {
		return nil, err
	}
	meta.stylesPart, _ = rels.byType(relStyles)
	meta.stringsPart, _ = rels.byType(relSharedStrings)
	parts, err := c.partsByID(rels)
	if err != nil {
		return nil, err
	}
	for i := range meta.sheets {
		locateSheet(&meta.sheets[i], parts)
	}
	meta.names = namedRanges(wr.names, meta.sheets)
	return meta, nil
}

// locateSheet finds a sheet's part through the workbook's relationships,
// or says why it cannot.
func locateSheet(s *sheetEntry, parts map[string]string) {
	part, ok := parts[s.relID]
	switch {
	case s.relID == "":
		s.problem = "the workbook lists it without a relationship id (its r:id is empty)"
	case !ok:
		s.problem = "the workbook's relationships hold no id " + quoteCut([]byte(s.relID)) + " for it"
	default:
		s.part = part
	}
}

// workbookReader collects what the workbook part says, token by token.
// Names are cut as they are read and reserved against the read's budget.
type workbookReader struct {
	mem            *memoryBudget
	meta           *workbookMeta
	names          []definedName
	inSheets       bool
	inDefinedNames bool
	current        *definedName // the defined name whose formula is being read
	refersTo       pieceText
	depth          int // of the next start tag: 0 for the root element
	ns             nsStack
	rootNS         string // the root element's namespace
	rootOK         bool   // the root element's prefix is declared
	sawPr          bool   // the workbook's own workbookPr was read
	scratch        []byte // one decoded text token
	scratchMem     charge
}

func newWorkbookReader(mem *memoryBudget, meta *workbookMeta) *workbookReader {
	wr := &workbookReader{mem: mem, meta: meta, scratchMem: charge{mem: mem}}
	for i := range wr.ns.frames {
		wr.ns.frames[i].mem = charge{mem: mem}
	}
	wr.refersTo.head = make([]byte, 0, maxKeptTextBytes)
	return wr
}

// release gives back the reader's scratch memory; what it collected stays.
func (wr *workbookReader) release() {
	wr.scratchMem.releaseAll()
	wr.ns.release()
}

func (wr *workbookReader) visit(sc *xmlScanner) (bool, error) {
	switch sc.kind {
	case tokenStart:
		depth := wr.depth
		if !sc.selfClosing {
			wr.depth++
		}
		if err := wr.ns.enter(depth, sc.attrs); err != nil {
			return false, err
		}
		if depth > 2 || !wr.ownElement(depth, sc.prefix) {
			return false, nil
		}
		return false, wr.start(sc, depth)
	case tokenEnd:
		wr.depth = max(0, wr.depth-1)
		return false, wr.end(sc, wr.depth)
	case tokenText, tokenCDATA:
		return false, wr.addText(sc.text, sc.kind == tokenCDATA)
	}
	return false, nil
}

// addText decodes one text token of a defined name's formula.
func (wr *workbookReader) addText(text []byte, literal bool) error {
	scratch, err := growSlice(&wr.scratchMem, wr.scratch[:0], len(text), 1)
	if err != nil {
		return err
	}
	if literal {
		wr.scratch = appendLiteral(scratch, text)
	} else {
		wr.scratch = appendUnescaped(scratch, text)
	}
	wr.refersTo.write(wr.scratch)
	return nil
}

// ownElement reports whether the element at depth, of that prefix, is the
// workbook part's own: in the namespace of the root element, which it
// records when depth is 0.
func (wr *workbookReader) ownElement(depth int, prefix []byte) bool {
	uri, ok := wr.ns.resolve(depth, prefix)
	if depth == 0 {
		wr.rootNS, wr.rootOK = uri, ok
	}
	return ok && wr.rootOK && uri == wr.rootNS
}

// start handles an element of the root's namespace at depth 1 (a child
// of the root) or 2. Only the workbook's own elements count: an extension
// element of the same local name lives in another namespace, deeper.
func (wr *workbookReader) start(sc *xmlScanner, depth int) error {
	switch name := string(sc.name); {
	case depth == 1 && name == "workbookPr":
		if !wr.sawPr {
			wr.sawPr = true
			wr.meta.date1904 = isTrue(trimXMLSpace([]byte(attrText(sc.attrs, "date1904"))))
		}
	case depth == 1 && name == "sheets":
		wr.inSheets = !sc.selfClosing
	case depth == 1 && name == "definedNames":
		wr.inDefinedNames = !sc.selfClosing
	case depth == 2 && name == "sheet" && wr.inSheets:
		return wr.addSheet(sc.attrs)
	case depth == 2 && name == "definedName" && wr.inDefinedNames:
		return wr.startName(sc)
	}
	return nil
}

// end handles an end tag that closes an element at depth.
func (wr *workbookReader) end(sc *xmlScanner, depth int) error {
	switch depth {
	case 1:
		wr.inSheets, wr.inDefinedNames = false, false
	case 2:
		return wr.endName(sc)
	}
	return nil
}

func (wr *workbookReader) addSheet(attrs []byte) error {
	name := wr.cut(attrText(attrs, "name"))
	state := attrText(attrs, "state")
	relID := attrText(attrs, "id")
	if err := wr.mem.reserve(costSheetEntry + int64(len(name)+len(relID))); err != nil {
		return err
	}
	wr.meta.sheets = append(wr.meta.sheets, sheetEntry{
		name: name, hidden: state == "hidden" || state == "veryHidden", relID: relID,
	})
	return nil
}

// startName begins a defined name; hidden ones are Excel's own bookkeeping
// (such as a filter's database range) and are skipped.
func (wr *workbookReader) startName(sc *xmlScanner) error {
	if isTrue([]byte(attrText(sc.attrs, "hidden"))) {
		return nil
	}
	dn := definedName{name: wr.cut(attrText(sc.attrs, "name")), localSheet: -1}
	if idx, err := strconv.Atoi(attrText(sc.attrs, "localSheetId")); err == nil && idx >= 0 {
		dn.localSheet = idx
	}
	wr.current = &dn
	wr.refersTo.reset()
	if sc.selfClosing {
		return wr.endName(sc)
	}
	sc.wantText = true
	return nil
}

// endName keeps the defined name whose formula has been read.
func (wr *workbookReader) endName(sc *xmlScanner) error {
	sc.wantText = false
	dn := wr.current
	if dn == nil {
		return nil
	}
	wr.current = nil
	shown, tail := wr.refersTo.shown()
	if tail != 0 {
		wr.meta.cutNames++
	}
	dn.refersTo = string(shown)
	if err := wr.mem.reserve(costNameEntry + int64(len(dn.name)+len(dn.refersTo))); err != nil {
		return err
	}
	wr.names = append(wr.names, *dn)
	return nil
}

// cut cuts a name, counting it when it had to.
func (wr *workbookReader) cut(name string) string {
	shown, cut := cutString(name)
	if cut {
		wr.meta.cutNames++
	}
	return shown
}

// namedRanges scopes the defined names: to the workbook, or to the sheet
// their local sheet index names.
func namedRanges(names []definedName, sheets []sheetEntry) []model.NamedRange {
	out := make([]model.NamedRange, 0, len(names))
	for _, dn := range names {
		scope := model.NameScopeWorkbook
		if dn.localSheet >= 0 && dn.localSheet < len(sheets) {
			scope = sheets[dn.localSheet].name
		}
		out = append(out, model.NamedRange{Name: dn.name, RefersTo: dn.refersTo, Scope: scope})
	}
	return out
}
