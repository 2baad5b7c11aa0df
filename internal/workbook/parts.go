// SPDX-License-Identifier: Apache-2.0

package workbook

import (
	"errors"
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

// costRelationship is what one kept relationship costs beside its texts.
const costRelationship = 96

// readRelationships reads the relationships of a part, resolving targets
// against the part's folder. External targets are dropped. A part without
// a relationships part has none. The relationships are reserved against
// the read's budget.
func (c *container) readRelationships(part string) (relationships, error) {
	name := relsPartName(part)
	if _, ok := c.part(name); !ok {
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
		return err
	}
	defer rc.Close()
	if err := scanTokens(rc, c.mem, visit); err != nil {
		return c.readFailure(err)
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
