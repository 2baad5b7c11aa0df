// SPDX-License-Identifier: Apache-2.0

package policy

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/dagu-mcp-gateway/gateway/internal/config"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient"
	"github.com/dagu-mcp-gateway/gateway/internal/watchfile"
)

// Bounds of a policy file.
const (
	// MaxFileBytes is the largest policy file read.
	MaxFileBytes = 256 << 10
	// MaxRules is the most rules one file may hold.
	MaxRules = 256
	// MaxValues is the most values one list of a rule may hold.
	MaxValues = 256
	// MaxKeyFileBytes is the largest daguApiKeyFile read.
	MaxKeyFileBytes = 4 << 10
)

// file is what a policy file is, for its strict reading.
var file = watchfile.ListFile{What: "an access policy", Key: "rules", Max: MaxRules, MaxWhy: "a policy may hold",
	EmptyHint: "give at least one rule (no rule means no access)"}

// fieldList names a rule's keys in the order messages list them.
const fieldList = "name, groups, subjects, emails, scopes, instances, targets, daguApiKeyFile"

// ParseOptions is what a policy is read against.
type ParseOptions struct {
	// Dir is where relative key file paths start: the policy file's
	// directory.
	Dir string
	// Targets are the dagu_read targets a rule may name.
	Targets []string
}

// Parse reads the text of a policy file strictly: one top-level key,
// rules, a list of mappings whose keys are a rule's fields, each at most
// once; no anchors or aliases, no other documents. Every rule has a unique
// name, at least one of groups, subjects, emails and scopes, and targets;
// each key file is a readable file holding a usable key. Errors name the
// line and the field, never a key.
func Parse(data []byte, o ParseOptions) (*Policy, error) {
	if len(data) > MaxFileBytes {
		return nil, fmt.Errorf("the file has %d bytes, more than the %d an access policy may hold", len(data), MaxFileBytes)
	}
	list, err := file.Entries(data)
	if err != nil {
		return nil, err
	}
	p := &Policy{}
	seen := map[string]int{}
	for i, node := range list {
		r, err := decodeRule(node, i+1, o)
		if err != nil {
			return nil, err
		}
		if first, dup := seen[r.Name]; dup {
			return nil, fmt.Errorf("line %d: rule name %q is already used by the rule at line %d", node.Line, r.Name, first)
		}
		seen[r.Name] = node.Line
		p.Rules = append(p.Rules, r)
	}
	return p, nil
}

// decodeRule reads and checks the nth rule.
func decodeRule(node *yaml.Node, nth int, o ParseOptions) (*Rule, error) {
	r := &Rule{}
	var targets []string
	fields := map[string]func(*yaml.Node) error{
		"name":           func(n *yaml.Node) error { return watchfile.Scalar(n, &r.Name) },
		"groups":         func(n *yaml.Node) error { return list(n, &r.Groups) },
		"subjects":       func(n *yaml.Node) error { return list(n, &r.Subjects) },
		"emails":         func(n *yaml.Node) error { return list(n, &r.Emails) },
		"scopes":         func(n *yaml.Node) error { return list(n, &r.Scopes) },
		"instances":      func(n *yaml.Node) error { return list(n, &r.Instances) },
		"targets":        func(n *yaml.Node) error { return list(n, &targets) },
		"daguApiKeyFile": func(n *yaml.Node) error { return keyFiles(n, &r.keyFiles) },
	}
	err := watchfile.Fields(node, nth, "rule", fieldList, func(key string, value *yaml.Node) (bool, error) {
		set, ok := fields[key]
		if !ok {
			return false, nil
		}
		return true, set(value)
	})
	if err != nil {
		return nil, err
	}
	if err := r.check(targets, o.Targets); err != nil {
		return nil, fmt.Errorf("line %d: rule %d: %w", node.Line, nth, err)
	}
	if err := r.loadKeys(o.Dir); err != nil {
		return nil, fmt.Errorf("line %d: rule %s: %w", node.Line, r.Name, err)
	}
	return r, nil
}

// check applies the rules of one rule on its own, and sets its targets
// and instances ("*": every one, nil).
func (r *Rule) check(targets, known []string) error {
	switch {
	case r.Name == "":
		return errors.New("no name")
	case !validName(r.Name):
		return fmt.Errorf("name %q must be 1 to 64 of a-z, 0-9, - and _ (it labels metrics)", r.Name)
	case len(r.Groups)+len(r.Subjects)+len(r.Emails)+len(r.Scopes) == 0:
		return fmt.Errorf("%s matches no one: give groups, subjects, emails or scopes (subjects: [\"*\"] is everyone who signs in)", r.Name)
	case targets == nil:
		return fmt.Errorf("%s has no targets: list the dagu_read targets it allows, or [\"*\"] for every one", r.Name)
	}
	for _, email := range r.Emails {
		if strings.Count(email, "@") != 1 || strings.Contains(email, "*") && !strings.HasPrefix(email, "*@") {
			return fmt.Errorf("%s: email %q must be an address or *@domain", r.Name, email)
		}
	}
	var err error
	if r.Targets, err = every(targets, "target", known); err != nil {
		return fmt.Errorf("%s: %w", r.Name, err)
	}
	if r.Instances, err = every(r.Instances, "instance", nil); err != nil {
		return fmt.Errorf("%s: %w", r.Name, err)
	}
	for _, name := range r.Instances {
		if !config.ValidInstanceName(name) {
			return fmt.Errorf("%s: instance %q is not an instance name", r.Name, name)
		}
	}
	for name := range r.keyFiles {
		if name != keyFileAny && !config.ValidInstanceName(name) {
			return fmt.Errorf("%s: daguApiKeyFile names %q, which is not an instance name", r.Name, name)
		}
	}
	return nil
}

// every turns ["*"] into nil (every one) and checks the names of a list
// against known (nil: any name).
func every(values []string, noun string, known []string) ([]string, error) {
	if slices.Contains(values, Any) {
		if len(values) > 1 {
			return nil, fmt.Errorf("%ss: \"*\" stands for every %s and goes alone", noun, noun)
		}
		return nil, nil
	}
	for _, v := range values {
		if known != nil && !slices.Contains(known, v) {
			return nil, fmt.Errorf("unknown %s %q (known: %s)", noun, v, strings.Join(known, ", "))
		}
	}
	if values == nil {
		return nil, nil
	}
	return values, nil
}

// validName reports whether a rule name is 1 to 64 of a-z, 0-9, - and _.
func validName(name string) bool {
	if name == "" || len(name) > 64 {
		return false
	}
	return strings.IndexFunc(name, func(c rune) bool {
		return !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_')
	}) < 0
}

// loadKeys checks each key file (relative to dir) and makes its key
// source, which reads it again whenever it changes.
func (r *Rule) loadKeys(dir string) error {
	r.keys = map[string]restclient.KeySource{}
	for instance, path := range r.keyFiles {
		if !filepath.IsAbs(path) {
			path = filepath.Join(dir, path)
		}
		if err := watchfile.CheckKeyFile(path, "daguApiKeyFile", MaxKeyFileBytes); err != nil {
			return err
		}
		r.keys[instance] = restclient.FileKey(path)
	}
	return nil
}

// list reads a list of strings: a sequence of 1 to MaxValues non-empty
// strings (one string alone is taken as a list of one).
func list(n *yaml.Node, to *[]string) error {
	var one string
	if n.Kind == yaml.ScalarNode && watchfile.Scalar(n, &one) == nil && one != "" {
		*to = []string{one}
		return nil
	}
	if n.Kind != yaml.SequenceNode || len(n.Content) == 0 {
		return errors.New("must be a list of strings")
	}
	if len(n.Content) > MaxValues {
		return fmt.Errorf("%d values, more than the %d a list may hold", len(n.Content), MaxValues)
	}
	out := make([]string, 0, len(n.Content))
	for _, item := range n.Content {
		var s string
		if err := watchfile.Scalar(item, &s); err != nil || s == "" {
			return errors.New("must be a list of strings")
		}
		out = append(out, s)
	}
	*to = out
	return nil
}

// keyFiles reads daguApiKeyFile: one file (the one Dagu), or a mapping of
// instance names to files.
func keyFiles(n *yaml.Node, to *map[string]string) error {
	var one string
	if n.Kind == yaml.ScalarNode && watchfile.Scalar(n, &one) == nil && one != "" {
		*to = map[string]string{keyFileAny: one}
		return nil
	}
	if n.Kind != yaml.MappingNode || len(n.Content) == 0 {
		return errors.New("must be a file, or a mapping of instance names to files")
	}
	out := map[string]string{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		var path string
		if err := watchfile.Scalar(n.Content[i+1], &path); err != nil || path == "" {
			return fmt.Errorf("%s: must be a file", n.Content[i].Value)
		}
		if _, dup := out[n.Content[i].Value]; dup {
			return fmt.Errorf("%s appears twice", n.Content[i].Value)
		}
		out[n.Content[i].Value] = path
	}
	*to = out
	return nil
}
