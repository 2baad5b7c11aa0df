// SPDX-License-Identifier: Apache-2.0

package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/url"
	"slices"
	"strings"
	"time"
)

// Bounds of one load run.
const (
	maxClients  = 512
	maxDuration = 10 * time.Minute
	maxRounds   = 20
	maxAlso     = 8
)

// errHelp is returned when the flags asked for help.
var errHelp = errors.New("help requested")

// config is one run's settings.
type config struct {
	url         string        // the gateway's MCP endpoint
	direct      string        // a Dagu base URL: load its REST API instead of MCP
	clients     int           // concurrent clients
	duration    time.Duration // how long calls are started
	maxCalls    int64         // total call budget (0: only the duration bounds it)
	timeout     time.Duration // bound of one call
	mix         []string      // targets, taken in turn by each client
	token       string        // bearer token for the gateway
	daguKey     string        // bearer key for -direct
	pid         int           // the gateway's process, for its peak RSS
	allowRemote bool          // allow non-loopback URLs
	dag         string        // DAG the dag, dag_spec and run targets read
	runID       string        // finished run of dag the run targets read
	step        string        // step of that run the step_log target reads
	resolveRun  bool          // replace runID by -dag's latest run, read through the gateway
	serveBare   string        // listen address: serve the gateway's answer from a bare go-sdk server

	// Foreach targets: the foreach step of a finished run they read.
	foreachDAG   string
	foreachRunID string
	foreachStep  string
	foreachItem  string

	// Round-trip mode (-upstream-delay): a proxy on upstreamListen delays
	// every request to upstream (Dagu) by upstreamDelay; the gateway under
	// test is started with the proxy as its Dagu.
	upstream       string
	upstreamListen string
	upstreamDelay  time.Duration
	// proxy is the running proxy while a round-trip run loads (not a flag).
	proxy *delayProxy

	// Compare mode (-baseline): the same load on the gateway, on every
	// -also endpoint and on the baseline, in interleaved rounds.
	label      string     // the gateway's name in the comparison
	baseline   endpoint   // the MCP endpoint compared with (Dagu's built-in /mcp)
	also       []endpoint // more gateways loaded beside (e.g. one with its caches on)
	rounds     int        // interleaved rounds
	onBaseline bool       // this run loads the baseline: read its substitutes
}

// parseFlags reads and checks the command line; getenv supplies
// DAGU_API_KEY as the default of -dagu-key and DAGU_MCP_KEY as that of
// -baseline-key (and DAGU_URL as that of -upstream). Those defaults are taken after parsing, never given to the
// flag set: -h prints a flag's default, and a key must not reach the help.
func parseFlags(args []string, stderr io.Writer, getenv func(string) string) (config, error) {
	var cfg config
	var mix string
	fs := flag.NewFlagSet("loadtest", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&cfg.url, "url", "http://127.0.0.1:8090/mcp", "the gateway's MCP endpoint")
	fs.StringVar(&cfg.direct, "direct", "", "base URL of a Dagu server (the demo Dagu URL `gateway demo` prints): load its REST API directly instead of the gateway")
	fs.IntVar(&cfg.clients, "clients", 32, fmt.Sprintf("concurrent clients (1-%d)", maxClients))
	fs.DurationVar(&cfg.duration, "duration", 10*time.Second, "how long to keep starting calls (at most "+maxDuration.String()+")")
	fs.Int64Var(&cfg.maxCalls, "max-calls", 0, "stop after this many calls in all (0: no limit but the duration)")
	fs.DurationVar(&cfg.timeout, "timeout", 15*time.Second, "bound of one call")
	fs.StringVar(&mix, "mix", "dags,runs,dag_spec,dag", "comma-separated targets each client cycles through: "+strings.Join(targetNames(), ", "))
	fs.StringVar(&cfg.token, "token", "", "bearer token for the gateway (its --auth-token), if it needs one")
	fs.StringVar(&cfg.daguKey, "dagu-key", "", "Dagu API key for -direct (default: the value of $DAGU_API_KEY; `DAGU_API_KEY=... gateway demo` makes the demo Dagu accept it)")
	fs.IntVar(&cfg.pid, "pid", 0, "the gateway's process ID: report its peak RSS (VmHWM, Linux)")
	fs.BoolVar(&cfg.allowRemote, "allow-remote", false, "allow a URL that is not a loopback address (only for a server you operate)")
	fs.StringVar(&cfg.dag, "dag", "failing_job", "DAG read by the dag, dag_spec, run, run_logs and step_log targets")
	fs.StringVar(&cfg.runID, "run-id", "0356UUn8VwcWFuh5L8qwbp", "finished run of -dag read by the run, run_logs and step_log targets")
	fs.StringVar(&cfg.step, "step", "explode", "step of -run-id read by the step_log target")
	fs.StringVar(&cfg.foreachDAG, "foreach-dag", "foreach_job", "DAG read by the foreach targets")
	fs.StringVar(&cfg.foreachRunID, "foreach-run-id", "0356UUnVEGj0qj7EkXG3Be", "finished run of -foreach-dag read by the foreach targets (-resolve-run replaces it by the DAG's latest run)")
	fs.StringVar(&cfg.foreachStep, "foreach-step", "each", "foreach step of -foreach-run-id")
	fs.StringVar(&cfg.foreachItem, "foreach-item", "1", "item of -foreach-step read by the foreach_item target")
	fs.DurationVar(&cfg.upstreamDelay, "upstream-delay", 0, "round-trip mode: start a proxy on -upstream-listen that holds every request to -upstream (Dagu) this long (e.g. 50ms, at most "+maxUpstreamDelay.String()+"), wait for the gateway, started with the proxy as its Dagu URL, to be ready, and report per target how many sequential round trips a read waited on; needs -clients 1")
	fs.StringVar(&cfg.upstream, "upstream", "", "round-trip mode: the Dagu base URL the proxy forwards to (default: $DAGU_URL)")
	fs.StringVar(&cfg.upstreamListen, "upstream-listen", "127.0.0.1:18190", "round-trip mode: the proxy's loopback listen address; give the gateway http://<this address> as its Dagu URL")
	fs.StringVar(&cfg.serveBare, "serve-bare", "", "instead of loading: read the first -mix target once through the gateway and serve that answer from a bare go-sdk server on this loopback address (e.g. 127.0.0.1:18193), until interrupted; compare with it through -baseline")
	fs.BoolVar(&cfg.resolveRun, "resolve-run", false, "before loading, read -dag's latest run through the gateway and use its ID as -run-id (for a real Dagu, whose run IDs are not known in advance)")
	fs.StringVar(&cfg.baseline.url, "baseline", "", "compare mode: an MCP endpoint to compare the gateway with (Dagu's built-in: $DAGU_URL/mcp), loaded with the same clients and arguments in interleaved rounds")
	fs.StringVar(&cfg.baseline.token, "baseline-key", "", "bearer key for -baseline (default: the value of $DAGU_MCP_KEY, a Dagu API key with the mcp surface)")
	fs.StringVar(&cfg.baseline.label, "baseline-label", "built-in", "the baseline's name in the comparison")
	fs.IntVar(&cfg.baseline.pid, "baseline-pid", 0, "the baseline's process ID: report its CPU time and peak RSS")
	fs.StringVar(&cfg.label, "label", "gateway", "the gateway's name in the comparison")
	fs.Func("also", "compare mode: one more gateway loaded beside, as label=URL or label=URL@pid (repeatable, e.g. cached=http://127.0.0.1:8092/mcp)", func(v string) error {
		e, err := parseEndpoint(v)
		cfg.also = append(cfg.also, e)
		return err
	})
	fs.IntVar(&cfg.rounds, "rounds", 3, fmt.Sprintf("compare mode: interleaved rounds (1-%d); every endpoint is loaded once per round, in a rotating order", maxRounds))
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return cfg, errHelp
		}
		return cfg, err
	}
	if fs.NArg() > 0 {
		return cfg, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	cfg.keysFromEnvironment(getenv)
	cfg.mix = splitMix(mix)
	return cfg, cfg.validate()
}

// splitMix reads the comma-separated target list.
func splitMix(s string) []string {
	var out []string
	for part := range strings.SplitSeq(s, ",") {
		if part = strings.TrimSpace(part); part != "" {
			out = append(out, part)
		}
	}
	return out
}

// validate checks the bounds and that traffic only goes where allowed.
func (c config) validate() error {
	switch {
	case c.clients < 1 || c.clients > maxClients:
		return fmt.Errorf("-clients must be 1 to %d, got %d", maxClients, c.clients)
	case c.duration <= 0 || c.duration > maxDuration:
		return fmt.Errorf("-duration must be above 0 and at most %s, got %s", maxDuration, c.duration)
	case c.maxCalls < 0:
		return fmt.Errorf("-max-calls must not be negative, got %d", c.maxCalls)
	case c.timeout <= 0:
		return fmt.Errorf("-timeout must be above 0, got %s", c.timeout)
	case len(c.mix) == 0:
		return errors.New("-mix names no target")
	}
	if err := c.checkMix(); err != nil {
		return err
	}
	if c.serveBare != "" {
		if err := checkURL("http://"+c.serveBare, false); err != nil {
			return fmt.Errorf("-serve-bare: %w", err)
		}
	}
	if c.resolveRun && c.direct != "" {
		return errors.New("-resolve-run reads through the gateway; it does not work with -direct")
	}
	if c.baseline.url != "" {
		if c.upstreamDelay != 0 {
			return errors.New("-upstream-delay and -baseline exclude each other")
		}
		return c.checkCompare()
	}
	if len(c.also) > 0 {
		return errors.New("-also needs -baseline (compare mode)")
	}
	target := c.url
	if c.direct != "" {
		target = c.direct
	}
	if err := checkURL(target, c.allowRemote); err != nil {
		return err
	}
	return c.checkUpstream()
}

// checkUpstream checks round-trip mode: one client (a read's requests are
// told apart from another's by time), an MCP gateway to load, a bounded
// delay, a Dagu under the loopback rule and a proxy on loopback only.
func (c config) checkUpstream() error {
	if c.upstreamDelay == 0 {
		return nil
	}
	switch {
	case c.upstreamDelay < 0 || c.upstreamDelay > maxUpstreamDelay:
		return fmt.Errorf("-upstream-delay must be above 0 and at most %s, got %s", maxUpstreamDelay, c.upstreamDelay)
	case c.clients != 1:
		return errors.New("-upstream-delay needs -clients 1: the requests of one read are told apart from another's by time")
	case c.direct != "" || c.serveBare != "":
		return errors.New("-upstream-delay loads a gateway through MCP; it does not work with -direct or -serve-bare")
	case c.upstream == "":
		return errors.New("-upstream-delay needs -upstream (or $DAGU_URL): the Dagu the proxy forwards to")
	}
	if err := checkURL(c.upstream, c.allowRemote); err != nil {
		return fmt.Errorf("-upstream: %w", err)
	}
	host, _, err := net.SplitHostPort(c.upstreamListen)
	if err != nil || net.ParseIP(host) == nil || !net.ParseIP(host).IsLoopback() {
		return fmt.Errorf("-upstream-listen must be a loopback IP and port, got %q", c.upstreamListen)
	}
	return nil
}

// checkCompare checks compare mode's endpoints: all reachable under the
// loopback rule, distinct labels, and bounded rounds.
func (c config) checkCompare() error {
	switch {
	case c.direct != "":
		return errors.New("-baseline and -direct exclude each other")
	case c.rounds < 1 || c.rounds > maxRounds:
		return fmt.Errorf("-rounds must be 1 to %d, got %d", maxRounds, c.rounds)
	case len(c.also) > maxAlso:
		return fmt.Errorf("at most %d -also endpoints, got %d", maxAlso, len(c.also))
	}
	seen := map[string]bool{}
	for _, e := range c.endpoints() {
		if e.label == "" || seen[e.label] {
			return fmt.Errorf("every compared endpoint needs its own label, got %q twice or empty", e.label)
		}
		seen[e.label] = true
		if err := checkURL(e.url, c.allowRemote); err != nil {
			return err
		}
	}
	return nil
}

// checkMix refuses unknown targets, and targets -direct cannot load.
func (c config) checkMix() error {
	for _, name := range c.mix {
		t, ok := targets[name]
		switch {
		case !ok:
			return fmt.Errorf("unknown target %q in -mix (known: %s)", name, strings.Join(targetNames(), ", "))
		case c.direct != "" && t.rest == nil:
			return fmt.Errorf("target %q has no direct REST equivalent in this tool; leave it out of -mix with -direct", name)
		}
	}
	return nil
}

// checkURL accepts an http(s) URL on a loopback host, or any host when
// remote traffic is allowed.
func checkURL(raw string, allowRemote bool) error {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("%q is not an http(s) URL", raw)
	}
	if allowRemote || isLoopbackHost(u.Hostname()) {
		return nil
	}
	return fmt.Errorf("refusing to load %s: it is not a loopback address (pass -allow-remote to load a server you operate)", u.Host)
}

// isLoopbackHost reports whether host is "localhost" or a loopback IP.
func isLoopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// targetNames lists the known targets, sorted.
func targetNames() []string {
	names := make([]string, 0, len(targets))
	for n := range targets {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// keysFromEnvironment fills the keys, and in round-trip mode the Dagu URL,
// that the command line left empty from the environment.
func (c *config) keysFromEnvironment(getenv func(string) string) {
	if c.daguKey == "" {
		c.daguKey = getenv("DAGU_API_KEY")
	}
	if c.baseline.token == "" {
		c.baseline.token = getenv("DAGU_MCP_KEY")
	}
	if c.upstream == "" && c.upstreamDelay != 0 {
		c.upstream = getenv("DAGU_URL")
	}
}
