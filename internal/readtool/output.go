// SPDX-License-Identifier: Apache-2.0

package readtool

import (
	"bytes"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
)

// successText is the contract's success text for every target.
const successText = "Dagu read completed."

// envelopeReferences is the fixed `references` list of every success.
var envelopeReferences = []string{
	model.ReferenceURI("authoring"),
	model.ReferenceURI("tools"),
	model.ReferenceURI("notifications"),
}

// envelopeFields are the fields the envelope may echo, in the order the
// contract's envelope lists them (after target and uri, before data).
var envelopeFields = []string{fName, fDAGRunID, fSubRunID, fStepName, fItem, fBodyStepName, fWorkspace, fPath, fPrefix}

// encodedReferences is the envelope's references array, encoded once.
var encodedReferences = func() []byte {
	raw, _ := json.Marshal(envelopeReferences)
	return raw
}()

// successResult renders a read's data as the contract's tool result, with
// the content out chooses. The data is encoded once and the envelope is
// written around those bytes, field by field in the contract's order,
// instead of being marshalled again as a whole.
func (t *Tool) successResult(c *call, data any, out output) (*mcp.CallToolResult, error) {
	data, raw, err := encode(data)
	if err != nil {
		return nil, err
	}
	content, err := successTexts(c, data, raw, out)
	if err != nil {
		return nil, err
	}
	if c.uri != "" && out.resourceLinks != ResourceLinksOmit {
		content = append(content, resourceLink(c))
	}
	return &mcp.CallToolResult{Content: content, StructuredContent: json.RawMessage(envelopeBytes(c, raw))}, nil
}

// envelopeBytes writes {target, uri, echoed fields, data, references}.
// Strings are encoded by encoding/json, so the bytes equal what marshalling
// the whole envelope would give.
func envelopeBytes(c *call, data []byte) []byte {
	b := bytes.NewBuffer(make([]byte, 0, len(data)+len(encodedReferences)+256))
	b.WriteString(`{"target":`)
	writeJSONString(b, c.target)
	if c.uri != "" {
		b.WriteString(`,"uri":`)
		writeJSONString(b, c.uri)
	}
	for _, f := range envelopeFields {
		if !contains(c.spec.echo, f) {
			continue
		}
		if v := c.in.get(f); v != "" {
			b.WriteString(`,"` + f + `":`)
			writeJSONString(b, v)
		}
	}
	b.WriteString(`,"data":`)
	b.Write(data)
	b.WriteString(`,"references":`)
	b.Write(encodedReferences)
	b.WriteByte('}')
	return b.Bytes()
}

func writeJSONString(b *bytes.Buffer, s string) {
	raw, _ := json.Marshal(s)
	b.Write(raw)
}

// successTexts is the text content of a success. The contract's is one
// item: "Dagu read completed." and, for dags, a blank line and the data as
// 2-space indented JSON. With TextContent "json" every target gets the
// success text alone and then its data as dataText renders it, in a
// second item: a client that attaches structuredContent to a lone text
// item (LangChain's JavaScript adapters) then sends the model the data
// once.
func successTexts(c *call, data any, raw []byte, out output) ([]mcp.Content, error) {
	if out.textContent == TextContentJSON {
		return []mcp.Content{&mcp.TextContent{Text: successText}, &mcp.TextContent{Text: dataText(c, data)}}, nil
	}
	if !c.spec.dataInText {
		return []mcp.Content{&mcp.TextContent{Text: successText}}, nil
	}
	var b bytes.Buffer
	b.Grow(len(successText) + 2 + len(raw)*2)
	b.WriteString(successText)
	b.WriteString("\n\n")
	if err := json.Indent(&b, raw, "", "  "); err != nil {
		return nil, err
	}
	return []mcp.Content{&mcp.TextContent{Text: b.String()}}, nil
}

// errorResult renders a tool error: isError, the error object as
// structured output, and its message as text.
func errorResult(e *Error) *mcp.CallToolResult {
	return &mcp.CallToolResult{
		IsError:           true,
		Content:           []mcp.Content{&mcp.TextContent{Text: string(e.Code) + ": " + e.Message}},
		StructuredContent: e,
	}
}

// resourceLink is the link of the read's pattern to its canonical URI.
func resourceLink(c *call) *mcp.ResourceLink {
	l := c.pattern.link
	return &mcp.ResourceLink{URI: c.uri, Name: l.name, MIMEType: l.mimeType, Title: l.title}
}

// Resource-link modes of a successful read (Options.ResourceLinks).
const (
	// ResourceLinksContract puts the contract's resource_link after the
	// text of every read that has a URI. The default.
	ResourceLinksContract = "contract"
	// ResourceLinksOmit leaves every resource_link out of the content, for
	// clients that turn links into attachments their model rejects
	// (LangChain's adapters make a file block of each); structuredContent
	// is unchanged.
	ResourceLinksOmit = "omit"
)
