// SPDX-License-Identifier: Apache-2.0

package instances

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/dagu-mcp-gateway/gateway/internal/config"
)

// fields are the keys an instance may have, each with how it sets the
// Instance. An unknown key is refused by name and line.
var fields = map[string]func(*Instance, *yaml.Node) error{
	"name":                func(in *Instance, n *yaml.Node) error { return scalar(n, &in.Name) },
	"url":                 func(in *Instance, n *yaml.Node) error { return scalar(n, &in.URL) },
	"apiKeyFile":          func(in *Instance, n *yaml.Node) error { return scalar(n, &in.APIKeyFile) },
	"upstreamAuth":        func(in *Instance, n *yaml.Node) error { return scalar(n, &in.UpstreamAuth) },
	"caFile":              func(in *Instance, n *yaml.Node) error { return scalar(n, &in.CAFile) },
	"insecureSkipVerify":  func(in *Instance, n *yaml.Node) error { return boolean(n, &in.InsecureSkipVerify) },
	"upstreamTimeout":     func(in *Instance, n *yaml.Node) error { return duration(n, &in.UpstreamTimeout) },
	"upstreamCompression": func(in *Instance, n *yaml.Node) error { return scalar(n, &in.UpstreamCompression) },
}

// fieldList names the keys in the order messages list them.
const fieldList = "name, url, apiKeyFile, upstreamAuth, caFile, insecureSkipVerify, upstreamTimeout, upstreamCompression"

// Parse reads the text of an instances file strictly: one top-level key,
// instances, a list of mappings whose keys are the fields above, each at
// most once; no anchors or aliases, no other documents. Every instance is
// checked (name, URL, key or passthrough, TLS, timeout, compression) and
// names are unique. Errors name the line and the field, never a value read
// from a key file (the file holds paths only).
func Parse(data []byte) (Set, error) {
	if len(data) > MaxFileBytes {
		return Set{}, fmt.Errorf("the file has %d bytes, more than the %d an instances file may hold", len(data), MaxFileBytes)
	}
	root, err := decodeOne(data)
	if err != nil {
		return Set{}, err
	}
	list, err := instanceList(root)
	if err != nil {
		return Set{}, err
	}
	var set Set
	seen := map[string]int{}
	for i, node := range list.Content {
		in, err := decodeInstance(node, i+1)
		if err != nil {
			return Set{}, err
		}
		if first, dup := seen[in.Name]; dup {
			return Set{}, fmt.Errorf("line %d: instance name %q is already used by the instance at line %d", node.Line, in.Name, first)
		}
		seen[in.Name] = node.Line
		set.Instances = append(set.Instances, in)
	}
	return set, nil
}

// decodeOne decodes the single YAML document of data into a node tree.
func decodeOne(data []byte) (*yaml.Node, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); errors.Is(err, io.EOF) {
		return nil, errors.New("the file is empty: it needs an instances: list")
	} else if err != nil {
		return nil, fmt.Errorf("not YAML: %w", err)
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err == nil {
		return nil, fmt.Errorf("line %d: a second YAML document; an instances file holds one", extra.Line)
	}
	if len(doc.Content) != 1 {
		return nil, errors.New("the file is empty: it needs an instances: list")
	}
	if err := refuseAliases(doc.Content[0]); err != nil {
		return nil, err
	}
	return doc.Content[0], nil
}

// refuseAliases refuses anchors and aliases, which would let a small file
// stand for a large one.
func refuseAliases(n *yaml.Node) error {
	if n.Kind == yaml.AliasNode || n.Anchor != "" {
		return fmt.Errorf("line %d: YAML anchors and aliases are not accepted in an instances file", n.Line)
	}
	for _, c := range n.Content {
		if err := refuseAliases(c); err != nil {
			return err
		}
	}
	return nil
}

// instanceList finds the instances: sequence of the root mapping.
func instanceList(root *yaml.Node) (*yaml.Node, error) {
	if root.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("line %d: the file must be a mapping with one key, instances", root.Line)
	}
	var list *yaml.Node
	for i := 0; i+1 < len(root.Content); i += 2 {
		key, value := root.Content[i], root.Content[i+1]
		if key.Value != "instances" {
			return nil, fmt.Errorf("line %d: unknown top-level field %q: the file has one key, instances", key.Line, key.Value)
		}
		if list != nil {
			return nil, fmt.Errorf("line %d: instances appears twice", key.Line)
		}
		list = value
	}
	switch {
	case list == nil:
		return nil, fmt.Errorf("line %d: no instances: list", root.Line)
	case list.Kind != yaml.SequenceNode:
		return nil, fmt.Errorf("line %d: instances must be a list", list.Line)
	case len(list.Content) == 0:
		return nil, fmt.Errorf("line %d: instances is empty: name at least one Dagu server", list.Line)
	case len(list.Content) > MaxInstances:
		return nil, fmt.Errorf("line %d: %d instances, more than the %d a gateway serves", list.Line, len(list.Content), MaxInstances)
	}
	return list, nil
}

// decodeInstance reads and checks the nth instance of the list.
func decodeInstance(node *yaml.Node, nth int) (Instance, error) {
	if node.Kind != yaml.MappingNode {
		return Instance{}, fmt.Errorf("line %d: instance %d must be a mapping of %s", node.Line, nth, fieldList)
	}
	var in Instance
	seen := map[string]bool{}
	for i := 0; i+1 < len(node.Content); i += 2 {
		key, value := node.Content[i], node.Content[i+1]
		set, ok := fields[key.Value]
		if !ok {
			return Instance{}, fmt.Errorf("line %d: unknown field %q in instance %d (known: %s)", key.Line, key.Value, nth, fieldList)
		}
		if seen[key.Value] {
			return Instance{}, fmt.Errorf("line %d: field %s appears twice in instance %d", key.Line, key.Value, nth)
		}
		seen[key.Value] = true
		if err := set(&in, value); err != nil {
			return Instance{}, fmt.Errorf("line %d: instance %d, %s: %w", value.Line, nth, key.Value, err)
		}
	}
	if err := in.check(); err != nil {
		return Instance{}, fmt.Errorf("line %d: instance %d: %w", node.Line, nth, err)
	}
	return in, nil
}

// check applies the rules of one instance on its own.
func (in Instance) check() error {
	switch {
	case in.Name == "":
		return errors.New("no name")
	case !ValidName(in.Name):
		return fmt.Errorf("name %q must be 1 to 32 of a-z, 0-9 and -", in.Name)
	case in.URL == "":
		return fmt.Errorf("%s has no url", in.Name)
	}
	if err := config.CheckDaguURLAs(in.Name+": url", "apiKeyFile", in.URL); err != nil {
		return err
	}
	switch in.UpstreamAuth {
	case "", AuthService, AuthPassthrough:
	default:
		return fmt.Errorf("%s: upstreamAuth %q must be service or passthrough", in.Name, in.UpstreamAuth)
	}
	switch {
	case in.UpstreamAuth == AuthPassthrough && in.APIKeyFile != "":
		return fmt.Errorf("%s: apiKeyFile and upstreamAuth: passthrough exclude each other (passthrough sends each caller's own key)", in.Name)
	case in.CAFile != "" && in.InsecureSkipVerify:
		return fmt.Errorf("%s: caFile and insecureSkipVerify are both set: keep the CA file", in.Name)
	case in.UpstreamTimeout < 0:
		return fmt.Errorf("%s: upstreamTimeout must be positive", in.Name)
	}
	switch in.UpstreamCompression {
	case "", config.UpstreamCompressionAuto, config.UpstreamCompressionGzip, config.UpstreamCompressionIdentity:
		return nil
	}
	return fmt.Errorf("%s: upstreamCompression %q must be auto, gzip or identity", in.Name, in.UpstreamCompression)
}

// scalar reads a string value.
func scalar(n *yaml.Node, to *string) error {
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		return errors.New("must be a string")
	}
	*to = strings.TrimSpace(n.Value)
	return nil
}

// boolean reads true or false.
func boolean(n *yaml.Node, to *bool) error {
	if n.Kind != yaml.ScalarNode || n.Tag != "!!bool" {
		return errors.New("must be true or false")
	}
	v, err := strconv.ParseBool(n.Value)
	if err != nil {
		return errors.New("must be true or false")
	}
	*to = v
	return nil
}

// duration reads a Go duration such as 15s.
func duration(n *yaml.Node, to *time.Duration) error {
	var s string
	if err := scalar(n, &s); err != nil {
		return errors.New("must be a duration such as 15s")
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return errors.New("must be a positive duration such as 15s")
	}
	*to = d
	return nil
}
