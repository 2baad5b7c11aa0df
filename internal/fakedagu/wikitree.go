// SPDX-License-Identifier: Apache-2.0

package fakedagu

import (
	"sort"
	"strings"
)

// wikiNode is a file or directory of the wiki tree answer.
type wikiNode struct {
	id, name   string
	isDir      bool
	workspace  string
	modifiedAt string
	page       *wikiPage
	children   []*wikiNode
}

// buildWikiTree arranges pages (already filtered by prefix) as a tree whose
// top level is the prefix directory's content.
func buildWikiTree(store *wikiStore, ws, prefix string, entries []wikiEntry) *wikiNode {
	root := &wikiNode{isDir: true}
	for _, e := range entries {
		rel := strings.TrimPrefix(strings.TrimPrefix(e.id, prefix), "/")
		segments := strings.Split(rel, "/")
		dir := root
		shown := prefix
		for _, seg := range segments[:len(segments)-1] {
			shown = joinPath(shown, seg)
			dir = dir.childDir(shown, seg, e.page.workspace)
		}
		dir.children = append(dir.children, &wikiNode{
			id: e.id, name: segments[len(segments)-1] + ".md", workspace: e.page.workspace,
			modifiedAt: e.page.modifiedAt, page: e.page,
		})
	}
	root.fillDirTimes(store, ws)
	return root
}

func joinPath(a, b string) string {
	if a == "" {
		return b
	}
	return a + "/" + b
}

// childDir returns the sub-directory with the given shown ID, adding it.
func (n *wikiNode) childDir(id, name, workspace string) *wikiNode {
	for _, c := range n.children {
		if c.isDir && c.id == id {
			return c
		}
	}
	d := &wikiNode{id: id, name: name, isDir: true, workspace: workspace}
	n.children = append(n.children, d)
	return d
}

// fillDirTimes sets each directory's modification time from the store, or
// from its newest child when the store has none.
func (n *wikiNode) fillDirTimes(store *wikiStore, ws string) string {
	newest := n.modifiedAt
	for _, c := range n.children {
		if t := c.fillDirTimes(store, ws); t > newest {
			newest = t
		}
	}
	if !n.isDir || n.id == "" {
		return newest
	}
	rel := n.id
	if ws == workspaceAll && n.workspace != "" {
		rel = strings.TrimPrefix(strings.TrimPrefix(n.id, n.workspace), "/")
	}
	if t, ok := store.dirTime[n.workspace+"\x00"+rel]; ok {
		n.modifiedAt = t
	} else {
		n.modifiedAt = newest
	}
	return n.modifiedAt
}

// sortChildren orders every level: by type (directories first, the
// default), by name, or by modification time; desc reverses.
func (n *wikiNode) sortChildren(by string, desc bool) {
	sort.SliceStable(n.children, func(i, j int) bool {
		a, b := n.children[i], n.children[j]
		if desc {
			a, b = b, a
		}
		switch {
		case by == "mtime" && a.modifiedAt != b.modifiedAt:
			return a.modifiedAt < b.modifiedAt
		case by != "name" && by != "mtime" && a.isDir != b.isDir:
			return a.isDir
		}
		return a.name < b.name
	})
	for _, c := range n.children {
		c.sortChildren(by, desc)
	}
}

// body renders a node in the WikiPageTreeNodeResponse shape; the docs
// tree has no modification times.
func (n *wikiNode) body(withTimes bool) obj {
	b := obj{"id": n.id, "name": n.name}
	if withTimes {
		b["modifiedAt"] = n.modifiedAt
	}
	if n.workspace != "" {
		b["workspace"] = n.workspace
	}
	if !n.isDir {
		b["type"] = "file"
		b["title"] = n.page.title
		if len(n.page.tags) > 0 {
			b["tags"] = stringsToArr(n.page.tags)
		}
		return b
	}
	b["type"] = "directory"
	children := arr{}
	for _, c := range n.children {
		children = append(children, c.body(withTimes))
	}
	if len(children) > 0 {
		b["children"] = children
	}
	return b
}
