// SPDX-License-Identifier: Apache-2.0

package watchfile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"go.yaml.in/yaml/v3"
)

// ListFile says what a file holding one list of mappings is: "an
// instances file" whose one key "instances" lists at most Max entries.
type ListFile struct {
	// What names the file in messages ("an instances file").
	What string
	// Key is its one top-level key ("instances").
	Key string
	// Max is the most entries the list may have, and MaxWhy why
	// ("a gateway serves").
	Max    int
	MaxWhy string
	// EmptyHint says what an empty list lacks ("name at least one Dagu
	// server").
	EmptyHint string
}

// Entries reads the text of such a file strictly: one YAML document, no
// anchors or aliases (a small file never stands for a large one), a
// mapping with the one key, a list of 1 to Max entries. Errors name the
// line.
func (f ListFile) Entries(data []byte) ([]*yaml.Node, error) {
	root, err := f.decodeOne(data)
	if err != nil {
		return nil, err
	}
	if root.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("line %d: the file must be a mapping with one key, %s", root.Line, f.Key)
	}
	var list *yaml.Node
	for i := 0; i+1 < len(root.Content); i += 2 {
		key, value := root.Content[i], root.Content[i+1]
		if key.Value != f.Key {
			return nil, fmt.Errorf("line %d: unknown top-level field %q: the file has one key, %s", key.Line, key.Value, f.Key)
		}
		if list != nil {
			return nil, fmt.Errorf("line %d: %s appears twice", key.Line, f.Key)
		}
		list = value
	}
	switch {
	case list == nil:
		return nil, fmt.Errorf("line %d: no %s: list", root.Line, f.Key)
	case list.Kind != yaml.SequenceNode:
		return nil, fmt.Errorf("line %d: %s must be a list", list.Line, f.Key)
	case len(list.Content) == 0:
		return nil, fmt.Errorf("line %d: %s is empty: %s", list.Line, f.Key, f.EmptyHint)
	case len(list.Content) > f.Max:
		return nil, fmt.Errorf("line %d: %d %s, more than the %d %s", list.Line, len(list.Content), f.Key, f.Max, f.MaxWhy)
	}
	return list.Content, nil
}

// decodeOne decodes the single YAML document of data into a node tree.
func (f ListFile) decodeOne(data []byte) (*yaml.Node, error) {
	empty := fmt.Errorf("the file is empty: it needs the %s: list", f.Key)
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); errors.Is(err, io.EOF) {
		return nil, empty
	} else if err != nil {
		return nil, fmt.Errorf("not YAML: %w", err)
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err == nil {
		return nil, fmt.Errorf("line %d: a second YAML document; %s holds one", extra.Line, f.What)
	}
	if len(doc.Content) != 1 {
		return nil, empty
	}
	if err := f.refuseAliases(doc.Content[0]); err != nil {
		return nil, err
	}
	return doc.Content[0], nil
}

// refuseAliases refuses anchors and aliases, which would let a small file
// stand for a large one.
func (f ListFile) refuseAliases(n *yaml.Node) error {
	if n.Kind == yaml.AliasNode || n.Anchor != "" {
		return fmt.Errorf("line %d: YAML anchors and aliases are not accepted in %s", n.Line, f.What)
	}
	for _, c := range n.Content {
		if err := f.refuseAliases(c); err != nil {
			return err
		}
	}
	return nil
}

// Fields reads the nth entry (a noun: "instance") strictly: a mapping
// whose every key set knows (known lists them for the message), each at
// most once. set reports false for a key it does not know.
func Fields(node *yaml.Node, nth int, noun, known string, set func(key string, value *yaml.Node) (bool, error)) error {
	if node.Kind != yaml.MappingNode {
		return fmt.Errorf("line %d: %s %d must be a mapping of %s", node.Line, noun, nth, known)
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(node.Content); i += 2 {
		key, value := node.Content[i], node.Content[i+1]
		if seen[key.Value] {
			return fmt.Errorf("line %d: field %s appears twice in %s %d", key.Line, key.Value, noun, nth)
		}
		seen[key.Value] = true
		ok, err := set(key.Value, value)
		if !ok {
			return fmt.Errorf("line %d: unknown field %q in %s %d (known: %s)", key.Line, key.Value, noun, nth, known)
		}
		if err != nil {
			return fmt.Errorf("line %d: %s %d, %s: %w", value.Line, noun, nth, key.Value, err)
		}
	}
	return nil
}

// Scalar reads a string value, trimmed.
func Scalar(n *yaml.Node, to *string) error {
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		return errors.New("must be a string")
	}
	*to = strings.TrimSpace(n.Value)
	return nil
}
