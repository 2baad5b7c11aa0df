// SPDX-License-Identifier: Apache-2.0

package model

// WikiCollection is the data of the `wiki` target. Tree mode fills Tree,
// flat mode fills Items; the other stays nil and is omitted, while an empty
// non-nil slice is kept so an empty wiki still answers `tree: []`.
type WikiCollection struct {
	Pagination Pagination `json:"pagination"`
	Tree       []WikiNode `json:"tree,omitzero"`
	Items      []WikiItem `json:"items,omitzero"`
}

// WikiNode is one node of the wiki tree. Only page (file) nodes carry a URI.
type WikiNode struct {
	ID         string     `json:"id"`
	Name       string     `json:"name"`
	Type       string     `json:"type"`
	URI        string     `json:"uri,omitempty"`
	Title      string     `json:"title,omitempty"`
	Tags       []string   `json:"tags,omitempty"`
	Workspace  string     `json:"workspace,omitempty"`
	ModifiedAt string     `json:"modifiedAt,omitempty"`
	Children   []WikiNode `json:"children,omitempty"`
}

// WikiItem is one page of a flat wiki listing.
type WikiItem struct {
	ID          string   `json:"id"`
	URI         string   `json:"uri"`
	Title       string   `json:"title"`
	Description string   `json:"description,omitempty"`
	Tags        []string `json:"tags,omitempty"`
	Workspace   string   `json:"workspace,omitempty"`
	ModifiedAt  string   `json:"modifiedAt,omitempty"`
}

// WikiPage is the data of the `wiki_page` target.
type WikiPage struct {
	ID          string   `json:"id"`
	Content     string   `json:"content"`
	MimeType    string   `json:"mimeType"`
	URI         string   `json:"uri"`
	Title       string   `json:"title,omitempty"`
	Description string   `json:"description,omitempty"`
	Tags        []string `json:"tags,omitempty"`
	Workspace   string   `json:"workspace,omitempty"`
	CreatedAt   string   `json:"createdAt,omitempty"`
	UpdatedAt   string   `json:"updatedAt,omitempty"`
}

// WikiSearch is the data of the `wiki_search` target.
type WikiSearch struct {
	Results    []WikiSearchResult `json:"results"`
	HasMore    bool               `json:"hasMore"`
	NextCursor string             `json:"nextCursor,omitempty"`
}

// WikiSearchResult is one wiki page that matched a search.
type WikiSearchResult struct {
	ID             string        `json:"id"`
	URI            string        `json:"uri"`
	Title          string        `json:"title,omitempty"`
	Description    string        `json:"description,omitempty"`
	Tags           []string      `json:"tags,omitempty"`
	Workspace      string        `json:"workspace,omitempty"`
	ModifiedAt     string        `json:"modifiedAt,omitempty"`
	Matches        []SearchMatch `json:"matches"`
	HasMoreMatches bool          `json:"hasMoreMatches"`
}
