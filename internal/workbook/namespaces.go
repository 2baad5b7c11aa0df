// SPDX-License-Identifier: Apache-2.0

package workbook

// The workbook part's own elements are the children of its root element
// in the root's namespace: SpreadsheetML's main namespace, transitional
// (http://schemas.openxmlformats.org/spreadsheetml/2006/main), strict
// (http://purl.oclc.org/ooxml/spreadsheetml/main) or, in files of the
// Office 2007 beta, http://schemas.microsoft.com/office/excel/2006/2.
// Extension elements (in an extLst) reuse the main elements' local names
// under namespaces of their own: Excel 2013 and later write
// <x15:workbookPr chartTrackingRefBase="1"/> beside the workbook's own
// workbookPr. Comparing namespaces tells them apart whatever the prefixes.

// costBinding is what one kept namespace declaration costs beside its
// prefix and namespace name.
const costBinding = 64

// nsFrame holds the namespace declarations of one open element: the
// namespace name each prefix it declares ("" for the default namespace)
// is bound to. What it keeps is reserved through mem.
type nsFrame struct {
	uri map[string]string
	mem charge
}

// reset forgets the frame's declarations and gives back their memory.
func (f *nsFrame) reset() {
	f.uri = nil
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
	if err := f.mem.add(costBinding + int64(len(prefix)+len(uri))); err != nil {
		return err
	}
	if f.uri == nil {
		f.uri = make(map[string]string)
	}
	f.uri[prefix] = uri
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

// resolve returns the namespace name prefix stands for on an element at
// depth; ok is false for a prefix no enclosing element declares. An
// undeclared default namespace is "" (no namespace).
func (st *nsStack) resolve(depth int, prefix []byte) (uri string, ok bool) {
	for d := min(depth, len(st.frames)-1); d >= 0; d-- {
		if uri, ok := st.frames[d].uri[string(prefix)]; ok {
			return uri, true
		}
	}
	return "", len(prefix) == 0
}

// release gives back the memory of every frame.
func (st *nsStack) release() {
	for i := range st.frames {
		st.frames[i].reset()
	}
}
