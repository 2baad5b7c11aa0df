// SPDX-License-Identifier: Apache-2.0

package fakedagu

import "sort"

// wikiPage is one Markdown page of a workspace ("" is the default one).
type wikiPage struct {
	workspace   string
	id          string // path inside the workspace, without ".md"
	title       string
	description string
	content     string
	tags        []string
	modifiedAt  string
	createdAt   string
	updatedAt   string
}

// wikiStore holds the pages and the modification times of directories. It
// serves the wiki (current) and its predecessor, the docs (2.0 and 2.6).
type wikiStore struct {
	pages   []*wikiPage
	dirTime map[string]string // workspace + "\x00" + directory id -> modifiedAt
	// fileRoot is where the server keeps the pages (docs answers of 2.6
	// show each page's filePath below it).
	fileRoot string
}

// buildWiki builds a store from an authored document (nil: no pages).
func buildWiki(doc obj) *wikiStore {
	store := &wikiStore{dirTime: map[string]string{}, fileRoot: getStr(doc, "fileRoot")}
	for _, e := range getArr(doc, "pages") {
		o := mustObj(e, "wiki page")
		store.pages = append(store.pages, &wikiPage{
			workspace:   getStr(o, "workspace"),
			id:          getStr(o, "id"),
			title:       getStr(o, "title"),
			description: getStr(o, "description"),
			content:     getStr(o, "content"),
			tags:        getStrings(o, "tags"),
			modifiedAt:  getStr(o, "modifiedAt"),
			createdAt:   getStr(o, "createdAt"),
			updatedAt:   getStr(o, "updatedAt"),
		})
	}
	for _, e := range getArr(doc, "directories") {
		o := mustObj(e, "wiki directory")
		store.dirTime[getStr(o, "workspace")+"\x00"+getStr(o, "id")] = getStr(o, "modifiedAt")
	}
	sort.Slice(store.pages, func(i, j int) bool {
		if store.pages[i].workspace != store.pages[j].workspace {
			return store.pages[i].workspace < store.pages[j].workspace
		}
		return store.pages[i].id < store.pages[j].id
	})
	return store
}
