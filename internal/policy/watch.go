// SPDX-License-Identifier: Apache-2.0

package policy

import (
	"fmt"
	"log/slog"
	"path/filepath"
	"slices"
	"sync/atomic"

	"github.com/dagu-mcp-gateway/gateway/internal/watchfile"
)

// what names the policy file in errors and log lines.
const what = "access policy"

// defaultInstance is the instance a gateway of one Dagu serves.
const defaultInstance = "default"

// Options says what a policy is read against and applied to.
type Options struct {
	// Path is the policy file.
	Path string
	// Targets are the dagu_read targets a rule may name.
	Targets []string
	// Instances is true when the gateway serves an instances file: each
	// key file then names its instance.
	Instances bool
	// Logger receives loads, reloads and their problems; nil discards.
	Logger *slog.Logger
}

// Load reads, parses and checks the policy file once.
func Load(o Options) (*Policy, error) {
	return watchfile.Load(o.Path, what, MaxFileBytes, o.parse)
}

// parse reads a version of the file and checks it fits the gateway.
func (o Options) parse(data []byte) (*Policy, error) {
	p, err := Parse(data, ParseOptions{Dir: filepath.Dir(o.Path), Targets: o.Targets})
	if err != nil {
		return nil, err
	}
	if err := p.checkFor(o.Instances); err != nil {
		return nil, err
	}
	return p, nil
}

// checkFor refuses what the gateway's shape makes meaningless: with an
// instances file a key given as one file (whose instance?); without one,
// a rule naming an instance other than default, the one Dagu.
func (p *Policy) checkFor(instances bool) error {
	for _, r := range p.Rules {
		for name := range r.keyFiles {
			switch {
			case instances && name == keyFileAny:
				return fmt.Errorf("rule %s: with --instances, daguApiKeyFile maps instance names to key files (daguApiKeyFile: {prod: prod.key})", r.Name)
			case !instances && name != keyFileAny && name != defaultInstance:
				return fmt.Errorf("rule %s: daguApiKeyFile names the instance %s, and this gateway serves one Dagu (--dagu-url): give one key file", r.Name, name)
			}
		}
		if !instances && r.Instances != nil && !slices.Contains(r.Instances, defaultInstance) {
			return fmt.Errorf("rule %s: instances %q: this gateway serves one Dagu (--dagu-url), the instance default", r.Name, r.Instances)
		}
	}
	return nil
}

// Live is the policy in service, replaced whole by each good reload.
type Live struct {
	current atomic.Pointer[Policy]
	watcher *watchfile.Watcher[*Policy]
}

// Watch loads the policy file and keeps it current (watchfile.Watcher:
// polled and on SIGHUP, a broken version keeping the last good one); Run
// the returned Live's Watcher to follow changes. A start fails on a file
// that is not good.
func Watch(o Options) (*Live, error) {
	l := &Live{}
	w, err := watchfile.New(watchfile.Options[*Policy]{Path: o.Path, What: what, MaxBytes: MaxFileBytes, Parse: o.parse,
		Apply:    func(p *Policy) error { l.current.Store(p); return nil },
		Describe: func(p *Policy) []any { return []any{"rules", p.Names()} }, Logger: o.Logger})
	if err != nil {
		return nil, err
	}
	l.watcher = w
	return l, nil
}

// Policy is the version in service.
func (l *Live) Policy() *Policy { return l.current.Load() }

// Watcher follows the file (its Run, its Check).
func (l *Live) Watcher() *watchfile.Watcher[*Policy] { return l.watcher }
