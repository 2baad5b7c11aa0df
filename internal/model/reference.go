// SPDX-License-Identifier: Apache-2.0

package model

// ReferenceItem lists one reference topic.
type ReferenceItem struct {
	Name     string `json:"name"`
	URI      string `json:"uri"`
	MimeType string `json:"mimeType"`
	Title    string `json:"title,omitempty"`
}

// ReferenceCollection is the data of the `references` target.
type ReferenceCollection struct {
	Items []ReferenceItem `json:"items"`
}

// ReferenceTopic is the data of the `reference` target.
type ReferenceTopic struct {
	Name     string `json:"name"`
	MimeType string `json:"mimeType"`
	Text     string `json:"text"`
}
