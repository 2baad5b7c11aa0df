// SPDX-License-Identifier: Apache-2.0

package instances

import (
	"fmt"
	"strings"

	"github.com/dagu-mcp-gateway/gateway/internal/config"
)

// Pick returns the instances a command asks for by name: stdio serves one,
// doctor checks one or all. A name picks its instance; no name picks every
// instance when all is set, else the one named default. The errors name
// the file's instances, which is what the operator needs to choose.
func Pick(set Set, name string, all bool) ([]Instance, error) {
	names := strings.Join(set.Names(), ", ")
	if name == "" && all {
		if len(set.Instances) == 0 {
			return nil, fmt.Errorf("the instances file names no instance")
		}
		return set.Instances, nil
	}
	if name == "" {
		in, ok := set.Lookup(DefaultName)
		if !ok {
			return nil, fmt.Errorf("the instances file names %s and none is %s: choose one with --instance NAME", names, DefaultName)
		}
		return []Instance{in}, nil
	}
	in, ok := set.Lookup(name)
	if !ok {
		return nil, fmt.Errorf("--instance %q: the instances file has no instance by that name; it names %s", name, names)
	}
	return []Instance{in}, nil
}

// Named is the configuration of one Dagu a command reads: an instance of
// the instances file (Name set) or the single Dagu of --dagu-url.
type Named struct {
	Name   string
	Config config.Config
	// Err says why the instance cannot be read with a key (none, or a key
	// file that cannot be used); Configs sets it instead of failing only
	// when every instance is asked for (doctor), which reports it and
	// checks the others.
	Err error
}

// Configs resolves --instances and --instance for stdio (all false: one
// instance) and doctor (all: every instance unless one is named): the
// configuration of each instance picked (ConfigOf), or global alone
// without an instances file. stdio and doctor read Dagu with the
// instance's key, so an instance without one is refused: stdio fails,
// doctor gets the reason in Named.Err and checks the other instances.
func Configs(global config.Config, name string, all bool) ([]Named, error) {
	if global.InstancesFile == "" {
		if name != "" {
			return nil, fmt.Errorf("--instance %s needs --instances (GATEWAY_INSTANCES_FILE)", name)
		}
		return []Named{{Config: global}}, nil
	}
	set, err := Load(global.InstancesFile)
	if err != nil {
		return nil, err
	}
	picked, err := Pick(set, name, all)
	if err != nil {
		return nil, err
	}
	out := make([]Named, len(picked))
	for i, in := range picked {
		out[i] = Named{Name: in.Name, Config: ConfigOf(global, in), Err: keyProblem(in)}
		if out[i].Err != nil && !all {
			return nil, out[i].Err
		}
	}
	return out, nil
}

// keyProblem says why stdio and doctor cannot read an instance's Dagu with
// a key of their own: it has none, or its key file cannot be used.
func keyProblem(in Instance) error {
	if in.APIKeyFile == "" {
		return fmt.Errorf("instance %s has no apiKeyFile (callers bring their own keys): stdio and doctor read Dagu with a key; give them that Dagu with --dagu-url and --dagu-api-key-file instead", in.Name)
	}
	if err := in.CheckKeyFile(); err != nil {
		return fmt.Errorf("instance %s: %w", in.Name, err)
	}
	return nil
}
