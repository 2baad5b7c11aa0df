// SPDX-License-Identifier: Apache-2.0

package instances

import (
	"errors"
	"fmt"
	"strconv"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/dagu-mcp-gateway/gateway/internal/config"
	"github.com/dagu-mcp-gateway/gateway/internal/watchfile"
)

// fields are the keys an instance may have, each with how it sets the
// Instance. An unknown key is refused by name and line.
var fields = map[string]func(*Instance, *yaml.Node) error{
	"name":                func(in *Instance, n *yaml.Node) error { return watchfile.Scalar(n, &in.Name) },
	"url":                 func(in *Instance, n *yaml.Node) error { return watchfile.Scalar(n, &in.URL) },
	"apiKeyFile":          func(in *Instance, n *yaml.Node) error { return watchfile.Scalar(n, &in.APIKeyFile) },
	"upstreamAuth":        func(in *Instance, n *yaml.Node) error { return watchfile.Scalar(n, &in.UpstreamAuth) },
	"caFile":              func(in *Instance, n *yaml.Node) error { return watchfile.Scalar(n, &in.CAFile) },
	"insecureSkipVerify":  func(in *Instance, n *yaml.Node) error { return boolean(n, &in.InsecureSkipVerify) },
	"upstreamTimeout":     func(in *Instance, n *yaml.Node) error { return duration(n, &in.UpstreamTimeout) },
	"upstreamCompression": func(in *Instance, n *yaml.Node) error { return watchfile.Scalar(n, &in.UpstreamCompression) },
}

// fieldList names the keys in the order messages list them.
const fieldList = "name, url, apiKeyFile, upstreamAuth, caFile, insecureSkipVerify, upstreamTimeout, upstreamCompression"

// file is what the instances file is, for its strict reading.
var file = watchfile.ListFile{What: "an instances file", Key: "instances", Max: MaxInstances, MaxWhy: "a gateway serves",
	EmptyHint: "name at least one Dagu server"}

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
	list, err := file.Entries(data)
	if err != nil {
		return Set{}, err
	}
	var set Set
	seen := map[string]int{}
	for i, node := range list {
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

// decodeInstance reads and checks the nth instance of the list.
func decodeInstance(node *yaml.Node, nth int) (Instance, error) {
	var in Instance
	err := watchfile.Fields(node, nth, "instance", fieldList, func(key string, value *yaml.Node) (bool, error) {
		set, ok := fields[key]
		if !ok {
			return false, nil
		}
		return true, set(&in, value)
	})
	if err != nil {
		return Instance{}, err
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
	if err := watchfile.Scalar(n, &s); err != nil {
		return errors.New("must be a duration such as 15s")
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return errors.New("must be a positive duration such as 15s")
	}
	*to = d
	return nil
}
