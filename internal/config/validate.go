// SPDX-License-Identifier: Apache-2.0

package config

import (
	"crypto/x509"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strings"
	"time"
)

// Validate checks c for the given subcommand and returns every problem
// found, joined, each saying how to fix it. Settings a mode does not use are
// not checked: stdio ignores --listen, demo ignores the Dagu connection.
// targets lists the dagu_read targets --disable-target may name. Validate
// reads the files the configuration names (key, CA, token file) to fail
// early on typos, but never includes secrets in its errors.
func (c Config) Validate(mode Mode, targets []string) error {
	switch mode {
	case ModeServe, ModeStdio, ModeDemo, ModeDoctor:
	default:
		return fmt.Errorf("unknown mode %q", mode)
	}
	var errs []error
	if mode.needsDagu() {
		errs = append(errs, c.validateDagu(mode)...)
	}
	if mode.servesHTTP() {
		errs = append(errs, c.validateFrontDoor()...)
		errs = append(errs, c.validateSignIn()...)
	}
	if mode == ModeServe {
		errs = append(errs, c.validatePassthrough(mode)...)
	}
	errs = append(errs, c.validateLimits(targets)...)
	errs = append(errs, c.validatePaths()...)
	errs = append(errs, c.validateLogging()...)
	return errors.Join(errs...)
}

func (c Config) validateDagu(mode Mode) []error {
	if c.InstancesFile != "" && mode != ModeDemo {
		return c.validateInstancesFile()
	}
	var errs []error
	if c.DaguURL == "" {
		errs = append(errs, fmt.Errorf("--dagu-url is required for %s: set it or DAGU_URL to the base URL of your Dagu server, e.g. https://dagu.example.com", mode))
	} else if err := checkDaguURL(c.DaguURL); err != nil {
		errs = append(errs, err)
	}
	errs = appendIf(errs, c.checkAPIKey())
	errs = appendIf(errs, c.checkTLS())
	return errs
}

// validateInstancesFile checks what config can of --instances: the file is
// there, and no single-Dagu setting competes with it (internal/instances
// parses the file when serve starts).
func (c Config) validateInstancesFile() []error {
	var errs []error
	if _, err := os.Stat(c.InstancesFile); err != nil {
		errs = append(errs, fmt.Errorf("--%s: %w", flagInstances, err))
	}
	single := []struct {
		flag string
		set  bool
	}{
		{flagDaguURL, c.DaguURL != ""}, {flagDaguAPIKey, c.DaguAPIKey != ""}, {flagDaguAPIKeyFile, c.DaguAPIKeyFile != ""},
		{"dagu-ca-file", c.DaguCAFile != ""}, {"dagu-insecure-skip-verify", c.DaguInsecureSkipVerify},
	}
	for _, s := range single {
		if s.set {
			errs = append(errs, fmt.Errorf("--%s and --%s are both set: with an instances file each Dagu's url, key and TLS settings are in the file; unset --%s (%s)",
				flagInstances, s.flag, s.flag, envOf(s.flag)))
		}
	}
	return errs
}

// checkDaguURL accepts an absolute http(s) URL without credentials, query or
// fragment, whose path is Dagu's base path rather than its REST path.
func checkDaguURL(raw string) error {
	return CheckDaguURLAs("--"+flagDaguURL, "--dagu-api-key-file", raw)
}

// CheckDaguURLAs applies the rules of --dagu-url to a Dagu base URL given
// elsewhere (an instance of the instances file): label names where it was
// given and keyHint where its key belongs, in the messages.
func CheckDaguURLAs(label, keyHint, raw string) error {
	u, err := url.Parse(raw)
	switch {
	case err != nil && !strings.Contains(raw, "://"):
		// A host and port without a scheme (127.0.0.1:8080) does not even
		// parse; say what is missing rather than Go's parser message.
		return fmt.Errorf("%s %q must start with http:// or https://", label, raw)
	case err != nil:
		return fmt.Errorf("%s: %v", label, err)
	}
	switch {
	case u.Scheme != "http" && u.Scheme != "https":
		return fmt.Errorf("%s %q must start with http:// or https://", label, raw)
	case u.Host == "":
		return fmt.Errorf("%s %q has no host: write it like https://dagu.example.com", label, raw)
	case u.User != nil:
		return fmt.Errorf("%s must not contain credentials: remove user:password@ and use %s", label, keyHint)
	case strings.ContainsAny(raw, "?#"):
		return fmt.Errorf("%s %q must not have a query or fragment: give only scheme, host and base path", label, raw)
	case strings.HasSuffix(u.Path, restAPIPath):
		return fmt.Errorf("%s %q ends with %s: give Dagu's base URL without it; the gateway appends %s itself", label, raw, restAPIPath, restAPIPath)
	}
	return nil
}

func (c Config) checkAPIKey() error {
	switch {
	case c.DaguAPIKey != "" && c.DaguAPIKeyFile != "":
		return errors.New("--dagu-api-key and --dagu-api-key-file are both set: keep only one (DAGU_API_KEY / DAGU_API_KEY_FILE)")
	case c.DaguAPIKey != "":
		return checkAPIKeyText(c.DaguAPIKey, "--dagu-api-key")
	case c.DaguAPIKeyFile != "":
		data, err := os.ReadFile(c.DaguAPIKeyFile)
		if err != nil {
			return fmt.Errorf("--dagu-api-key-file: %w", err)
		}
		return checkAPIKeyText(strings.TrimSpace(string(data)), "--dagu-api-key-file "+c.DaguAPIKeyFile)
	}
	return nil
}

// checkAPIKeyText refuses keys that cannot travel in an Authorization
// header. The key itself is never part of the error.
func checkAPIKeyText(key, source string) error {
	if key == "" {
		return fmt.Errorf("%s: the API key is empty", source)
	}
	if strings.ContainsFunc(key, func(r rune) bool { return r <= ' ' || r == 0x7f }) {
		return fmt.Errorf("%s: the API key contains spaces or control characters", source)
	}
	return nil
}

func (c Config) checkTLS() error {
	if c.DaguCAFile == "" {
		return nil
	}
	if c.DaguInsecureSkipVerify {
		return errors.New("--dagu-ca-file and --dagu-insecure-skip-verify are both set: keep the CA file and drop skip-verify")
	}
	data, err := os.ReadFile(c.DaguCAFile)
	if err != nil {
		return fmt.Errorf("--dagu-ca-file: %w", err)
	}
	if !x509.NewCertPool().AppendCertsFromPEM(data) {
		return fmt.Errorf("--dagu-ca-file %s holds no PEM certificate", c.DaguCAFile)
	}
	return nil
}

func (c Config) validateFrontDoor() []error {
	var errs []error
	if _, err := SplitListen(c.Listen); err != nil {
		errs = append(errs, err)
	}
	tokens, err := c.InboundTokens()
	if err != nil {
		errs = append(errs, err)
	}
	for _, t := range tokens {
		if err := CheckToken(t); err != nil {
			errs = append(errs, err)
			break
		}
	}
	if err == nil && len(tokens) == 0 && !IsLoopbackListen(c.Listen) && !c.Passthrough() && !c.SignIn() {
		errs = append(errs, fmt.Errorf("refusing to listen on %q without authentication: give callers tokens with --auth-token-file or GATEWAY_AUTH_TOKEN_FILE "+
			"(or --auth-token, GATEWAY_AUTH_TOKENS), have each caller send its own Dagu key (--upstream-auth passthrough), have people sign in with an OpenID provider "+
			"(--oidc-issuer with --access-policy), or listen on a loopback address "+
			"such as --listen 127.0.0.1:8090", c.Listen))
	}
	for _, h := range c.AllowedHosts {
		errs = appendIf(errs, checkAllowedHost(h))
	}
	errs = appendIf(errs, checkPublicURL(c.PublicURL))
	_, err = ParseTrustedProxies(c.TrustedProxies)
	errs = appendIf(errs, err)
	return appendIf(errs, checkClientAddress(c.ClientIPHeader, c.TrustedProxies))
}

func (c Config) validateLimits(targets []string) []error {
	var errs []error
	errs = appendIf(errs, positiveDuration(flagUpstreamTimeout, c.UpstreamTimeout))
	errs = appendIf(errs, positiveDuration(flagShutdownTimeout, c.ShutdownTimeout))
	if c.Passthrough() && c.TrustRecheck < time.Second {
		errs = append(errs, fmt.Errorf("--%s must be at least 1s (default 1m); %s sets it too", flagTrustRecheck, envOf(flagTrustRecheck)))
	}
	if c.CacheTTL < 0 {
		errs = append(errs, errors.New("--cache-ttl must not be negative: use 0 to disable the cache"))
	}
	errs = appendIf(errs, positiveNumber(flagMaxResponseBytes, c.MaxResponseBytes))
	if c.UpstreamBodyBudget < c.MaxResponseBytes {
		errs = append(errs, fmt.Errorf("--%s (%s) must be at least --%s (%s): a largest answer must fit in it",
			flagUpstreamBodyBudget, FormatByteSize(c.UpstreamBodyBudget), flagMaxResponseBytes, FormatByteSize(c.MaxResponseBytes)))
	}
	errs = append(errs, c.validateMemory()...)
	errs = appendIf(errs, positiveNumber(flagWorkbookMaxBytes, c.WorkbookMaxBytes))
	errs = appendIf(errs, positiveNumber(flagWorkbookMaxRows, int64(c.WorkbookMaxRows)))
	errs = appendIf(errs, positiveNumber(flagWorkbookMaxSheets, int64(c.WorkbookMaxSheets)))
	errs = appendIf(errs, atLeast(flagWorkbookMaxMemory, c.WorkbookMaxMemory, minWorkbookMaxMemory, "1MiB"))
	errs = appendIf(errs, positiveNumber(flagWorkbookConcurrency, int64(c.WorkbookConcurrency)))
	if _, _, err := ParseMemoryLimit(c.MemoryLimit); err != nil {
		errs = append(errs, fmt.Errorf("--%s: %w; %s sets it too", flagMemoryLimit, err, envOf(flagMemoryLimit)))
	}
	return append(errs, c.validatePolicy(targets)...)
}

// Smallest memory settings accepted: the budget must take a largest
// request body (1 MiB, reserved 8 times over) with room for answers, and
// an answer must hold a useful log window.
const (
	minMemoryBudget   = 16 << 20
	minMaxAnswerBytes = 64 << 10
	// answerShare is how many answers at the cap the budget must hold at
	// once (each costs about four times its size until it is written).
	answerShare = 4
)

// validateMemory checks the memory budget against the answer cap.
func (c Config) validateMemory() []error {
	errs := appendIf(nil, atLeast(flagMemoryBudget, c.MemoryBudget, minMemoryBudget, "16MiB"))
	errs = appendIf(errs, atLeast(flagMaxAnswerBytes, c.MaxAnswerBytes, minMaxAnswerBytes, "64KiB"))
	if c.MaxAnswerBytes > 0 && c.MemoryBudget < answerShare*4*c.MaxAnswerBytes {
		errs = append(errs, fmt.Errorf("--%s (%s) must be at least 16 times --%s (%s): four answers at the cap must fit in it",
			flagMemoryBudget, FormatByteSize(c.MemoryBudget), flagMaxAnswerBytes, FormatByteSize(c.MaxAnswerBytes)))
	}
	return errs
}

// minWorkbookMaxMemory is the smallest workbook memory budget accepted:
// below it even a small workbook is refused (a size given without its
// unit, 64 for 64MiB, is the likely mistake).
const minWorkbookMaxMemory = 1 << 20

func atLeast(flag string, n, least int64, leastText string) error {
	if n < least {
		return fmt.Errorf("--%s must be at least %s; %s sets it too", flag, leastText, envOf(flag))
	}
	return nil
}

func positiveDuration(flag string, d time.Duration) error {
	if d <= 0 {
		return fmt.Errorf("--%s must be above zero (e.g. 15s); %s sets it too", flag, envOf(flag))
	}
	return nil
}

func positiveNumber(flag string, n int64) error {
	if n <= 0 {
		return fmt.Errorf("--%s must be above zero; %s sets it too", flag, envOf(flag))
	}
	return nil
}

func (c Config) validatePaths() []error {
	var errs []error
	if c.ReferenceDir != "" {
		errs = appendIf(errs, checkDir(flagReferenceDir, c.ReferenceDir))
	}
	for _, root := range c.WorkbookRoots {
		errs = appendIf(errs, checkDir(flagWorkbookRoot, root))
	}
	return errs
}

func checkDir(flag, path string) error {
	info, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("--%s: %w", flag, err)
	}
	if !info.IsDir() {
		return fmt.Errorf("--%s %s is not a directory", flag, path)
	}
	return nil
}

func (c Config) validateLogging() []error {
	var errs []error
	if _, err := ParseLogLevel(c.LogLevel); err != nil {
		errs = append(errs, err)
	}
	if c.LogFormat != "json" && c.LogFormat != "text" {
		errs = append(errs, fmt.Errorf("--log-format %q: use json or text", c.LogFormat))
	}
	return errs
}

// appendIf appends err when it is not nil.
func appendIf(errs []error, err error) []error {
	if err != nil {
		return append(errs, err)
	}
	return errs
}
