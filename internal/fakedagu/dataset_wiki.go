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

// wikiStore holds the pages and the modification times of directories.
type wikiStore struct {
	pages   []*wikiPage
	dirTime map[string]string // workspace + "\x00" + directory id -> modifiedAt
}

func buildWiki(src *sources) *wikiStore {
	doc := src.derived["wiki"]
	store := &wikiStore{dirTime: map[string]string{}}
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
