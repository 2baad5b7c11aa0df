package workbook

import (
	"bytes"
	"encoding/xml"
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
	ID     string `xml:"Id,attr"`
	Type   string `xml:"Type,attr"`
	Target string `xml:"Target,attr"`
	Mode   string `xml:"TargetMode,attr"`
}

// relationships are the resolved internal relationships of one part.
type relationships []relationship

// byID returns the part a relationship id points to.
func (rels relationships) byID(id string) (string, bool) {
	for _, r := range rels {
		if r.ID == id {
			return r.Target, true
		}
	}
	return "", false
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

// readRelationships reads the relationships of a part, resolving targets
// against the part's folder. External targets are dropped. A part without
// a relationships part has none.
func (c *container) readRelationships(part string) (relationships, error) {
	name := relsPartName(part)
	if _, ok := c.part(name); !ok {
		return nil, nil
	}
	data, err := c.readPart(name, maxMetadataPartBytes)
	if err != nil {
		return nil, err
	}
	var doc struct {
		Rels []relationship `xml:"Relationship"`
	}
	if err := xml.NewDecoder(bytes.NewReader(data)).Decode(&doc); err != nil {
		return nil, errMalformed(c.name, err)
	}
	rels := make(relationships, 0, len(doc.Rels))
	for _, r := range doc.Rels {
		if strings.EqualFold(r.Mode, "External") {
			continue
		}
		r.Target = resolveTarget(part, r.Target)
		rels = append(rels, r)
	}
	return rels, nil
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
