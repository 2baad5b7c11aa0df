// SPDX-License-Identifier: Apache-2.0

package workbook

import (
	"archive/zip"
	"errors"
	"fmt"
	"io"
	"net/url"
	"path"
	"strings"
)

// Relationship types, matched by their last path segment so that both the
// transitional and the strict OOXML namespaces are recognised.
const (
	relOfficeDocument = "officeDocument"
	relWorksheet      = "worksheet"
	relChartsheet     = "chartsheet"
	relStyles         = "styles"
	relSharedStrings  = "sharedStrings"
	relTable          = "table"
)

type relationship struct {
	ID, Type, Target, Mode string
}

// relationships are the resolved internal relationships of one part.
type relationships []relationship

// costRelationshipID is what one entry of a relationships' index by id
// costs beside the texts it shares with the relationship.
const costRelationshipID = 64

// partsByID indexes the relationships' parts by id, the first of a
// repeated id winning, so that finding the parts of n sheets or tables is
// one lookup each: a scan of the list for each of 100,000 sheets took a
// minute of CPU before the first sheet was read. The index is reserved
// against the read's budget.
func (c *container) partsByID(rels relationships) (map[string]string, error) {
	if err := c.mem.reserve(int64(len(rels)) * costRelationshipID); err != nil {
		return nil, err
	}
	parts := make(map[string]string, len(rels))
	for _, r := range rels {
		if _, seen := parts[r.ID]; !seen {
			parts[r.ID] = r.Target
		}
	}
	return parts, nil
}

// byType returns the part of the first relationship of a type.
func (rels relationships) byType(kind string) (string, bool) {
	for _, r := range rels {
		if relationType(r.Type) == kind {
			return r.Target, true
		}
	}
	return "", false
}

func relationType(uri string) string {
	return uri[strings.LastIndexByte(uri, '/')+1:]
}

// relsPartName returns the relationships part of a part:
// xl/workbook.xml -> xl/_rels/workbook.xml.rels; "" -> _rels/.rels.
func relsPartName(part string) string {
	dir, file := path.Split(part)
	return dir + "_rels/" + file + ".rels"
}

// costRelationship is what one kept relationship costs beside its texts.
const costRelationship = 96

// readRelationships reads the relationships of a part, resolving targets
// against the part's folder. External targets are dropped. A part without
// a relationships part has none. The relationships are reserved against
// the read's budget.
func (c *container) readRelationships(part string) (relationships, error) {
	name := relsPartName(part)
	if !c.hasPart(name) {
		return nil, nil
	}
	var rels relationships
	err := c.scanPart(name, func(sc *xmlScanner) (bool, error) {
		if sc.kind != tokenStart || string(sc.name) != "Relationship" {
			return false, nil
		}
		r := relationship{
			ID: attrText(sc.attrs, "Id"), Type: attrText(sc.attrs, "Type"),
			Target: attrText(sc.attrs, "Target"), Mode: attrText(sc.attrs, "TargetMode"),
		}
		if strings.EqualFold(r.Mode, "External") {
			return false, nil
		}
		r.Target = resolveTarget(part, r.Target)
		if err := c.mem.reserve(costRelationship + int64(len(r.ID)+len(r.Type)+len(r.Target))); err != nil {
			return false, err
		}
		rels = append(rels, r)
		return false, nil
	})
	return rels, err
}

// scanPart streams a metadata part of at most maxMetadataPartBytes
// through visit, token by token, until the part ends or visit stops it.
func (c *container) scanPart(name string, visit func(sc *xmlScanner) (stop bool, err error)) error {
	rc, err := c.openPart(name, maxMetadataPartBytes)
	if err != nil {
		return c.readFailure(name, err)
	}
	defer rc.Close()
	if err := scanTokens(rc, c.mem, visit); err != nil {
		return c.readFailure(name, err)
	}
	return nil
}

// scanTokens streams r through visit, token by token, with a scanner
// reserved against mem, until r ends or visit stops it.
func scanTokens(r io.Reader, mem *memoryBudget, visit func(sc *xmlScanner) (stop bool, err error)) error {
	sc := newXMLScanner(r, mem)
	defer sc.close()
	for {
		err := sc.next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		stop, err := visit(sc)
		if err != nil || stop {
			return err
		}
	}
}

// attrText returns the decoded value of the attribute with the local name
// want, or "".
func attrText(raw []byte, want string) string {
	value, ok := attrValue(raw, want)
	if !ok {
		return ""
	}
	return string(appendUnescaped(nil, value))
}

// resolveTarget resolves a relationship target against its source part.
func resolveTarget(source, target string) string {
	if strings.Contains(target, "%") {
		if unescaped, err := url.PathUnescape(target); err == nil {
			target = unescaped
		}
	}
	target = strings.ReplaceAll(target, "\\", "/")
	if strings.HasPrefix(target, "/") {
		return path.Clean(target)[1:]
	}
	return strings.TrimPrefix(path.Join(path.Dir(source), target), "/")
}

// partIndex finds a package's parts by name. OPC part names compare
// without case, so xl/worksheets/sheet1.xml and xl/worksheets/Sheet1.xml
// name one part; a package that holds both is read from the one whose
// name is spelt exactly as asked (the relationships' target), and refused
// as ambiguous when neither is and their contents differ.
type partIndex struct {
	byKey map[string]*zip.File   // by lower-cased name: the first entry
	dups  map[string][]*zip.File // names held by several entries: all of them
}

func indexParts(zr *zip.Reader) partIndex {
	ix := partIndex{byKey: make(map[string]*zip.File, len(zr.File))}
	for _, f := range zr.File {
		key := normalizePartName(f.Name)
		first, seen := ix.byKey[key]
		if !seen {
			ix.byKey[key] = f
			continue
		}
		if ix.dups == nil {
			ix.dups = make(map[string][]*zip.File)
		}
		if len(ix.dups[key]) == 0 {
			ix.dups[key] = []*zip.File{first}
		}
		ix.dups[key] = append(ix.dups[key], f)
	}
	return ix
}

// normalizePartName lower-cases a part name (OPC part names compare
// case-insensitively), uses forward slashes and drops a leading slash.
func normalizePartName(name string) string {
	return strings.ToLower(spellPartName(name))
}

// spellPartName is a part name as spelt, with forward slashes and without
// a leading slash.
func spellPartName(name string) string {
	return strings.TrimPrefix(strings.ReplaceAll(name, "\\", "/"), "/")
}

// has reports whether the package holds a part of that name, in any case.
func (ix partIndex) has(name string) bool {
	_, ok := ix.byKey[normalizePartName(name)]
	return ok
}

// lookup returns the part name names: errPartMissing when the package has
// none, the one spelt exactly as name when several differ only in case,
// and an ambiguity refusal when none is and their contents differ.
func (ix partIndex) lookup(book, name string) (*zip.File, error) {
	key := normalizePartName(name)
	f, ok := ix.byKey[key]
	if !ok {
		return nil, fmt.Errorf("%w: %s", errPartMissing, name)
	}
	candidates := ix.dups[key]
	if len(candidates) == 0 {
		return f, nil
	}
	var exact []*zip.File
	for _, c := range candidates {
		if spellPartName(c.Name) == spellPartName(name) {
			exact = append(exact, c)
		}
	}
	switch {
	case len(exact) == 1:
		return exact[0], nil
	case sameContent(candidates):
		return candidates[0], nil
	}
	return nil, errAmbiguousPart(book, spellPartName(name), len(candidates))
}

// sameContent reports entries that hold the same bytes, as far as their
// sizes and checksums tell.
func sameContent(files []*zip.File) bool {
	for _, f := range files[1:] {
		if f.CRC32 != files[0].CRC32 || f.UncompressedSize64 != files[0].UncompressedSize64 {
			return false
		}
	}
	return true
}

// errPartMissing is a part the package does not hold.
var errPartMissing = errors.New("the part is missing from the package")
