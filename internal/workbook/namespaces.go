// SPDX-License-Identifier: Apache-2.0

package workbook

// SpreadsheetML's main namespace, in its transitional and strict forms.
// Extension elements (in an extLst) reuse the main elements' local names
// under namespaces of their own: Excel 2013 and later write
// <x15:workbookPr chartTrackingRefBase="1"/> beside the workbook's own
// workbookPr, so an element is the workbook's own only when its name
// resolves to one of these.
const (
	nsMainTransitional = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
	nsMainStrict       = "http://purl.oclc.org/ooxml/spreadsheetml/main"
)

// costBinding is what one kept namespace declaration costs beside its
// prefix.
const costBinding = 64

// nsFrame holds the namespace declarations of one open element: for each
// prefix it declares ("" for the default namespace), whether it binds it
// to the main namespace. What it keeps is reserved through mem.
type nsFrame struct {
	main map[string]bool
	mem  charge
}

// reset forgets the frame's declarations and gives back their memory.
func (f *nsFrame) reset() {
	f.main = nil
	f.mem.releaseAll()
}

// declare reads the xmlns and xmlns:prefix attributes of an element.
func (f *nsFrame) declare(attrs []byte) error {
	for rest := attrs; ; {
		qname, value, next, ok := nextQAttr(rest)
		if !ok {
			return nil
		}
		rest = next
		prefix, local := splitQName(qname)
		var declared string
		switch {
		case prefix == nil && string(local) == "xmlns":
			declared = ""
		case string(prefix) == "xmlns":
			declared = string(local)
		default:
			continue
		}
		if err := f.bind(declared, string(appendUnescaped(nil, value))); err != nil {
			return err
		}
	}
}

func (f *nsFrame) bind(prefix, uri string) error {
	if _, known := f.main[prefix]; !known {
		if err := f.mem.add(costBinding + int64(len(prefix))); err != nil {
			return err
		}
	}
	if f.main == nil {
		f.main = make(map[string]bool)
	}
	f.main[prefix] = uri == nsMainTransitional || uri == nsMainStrict
	return nil
}

// nsStack resolves the prefixes of the elements at the first few depths
// of a part: the root, its children and theirs, which is where the
// workbook part's own elements live. Deeper elements are not resolved.
type nsStack struct {
	frames [3]nsFrame
}

// enter records the declarations of a start tag at depth (0: the root).
func (st *nsStack) enter(depth int, attrs []byte) error {
	if depth >= len(st.frames) {
		return nil
	}
	st.frames[depth].reset()
	return st.frames[depth].declare(attrs)
}

// isMain reports whether prefix, on an element at depth, names the main
// namespace. A part that declares no default namespace at all is read as
// SpreadsheetML (some writers leave it out); an undeclared prefix is not.
func (st *nsStack) isMain(depth int, prefix []byte) bool {
	for d := min(depth, len(st.frames)-1); d >= 0; d-- {
		if main, ok := st.frames[d].main[string(prefix)]; ok {
			return main
		}
	}
	return len(prefix) == 0
}

// release gives back the memory of every frame.
func (st *nsStack) release() {
	for i := range st.frames {
		st.frames[i].reset()
	}
}
