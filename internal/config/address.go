// SPDX-License-Identifier: Apache-2.0

package config

import (
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
)

// SplitListen checks a listen address and returns its port.
func SplitListen(listen string) (string, error) {
	_, port, err := net.SplitHostPort(listen)
	if err != nil {
		return "", fmt.Errorf("--listen %q is not host:port: write it like 127.0.0.1:8090 or 0.0.0.0:8090", listen)
	}
	if !ValidPort(port) {
		return "", fmt.Errorf("--listen %q has an invalid port: use a number from 0 to 65535 (0 picks a free port)", listen)
	}
	return port, nil
}

// ValidPort accepts a decimal port number from 0 to 65535, digits only.
func ValidPort(port string) bool {
	if port == "" || len(port) > 5 || strings.Trim(port, "0123456789") != "" {
		return false
	}
	n, err := strconv.Atoi(port)
	return err == nil && n <= 65535
}

// ReachableHost is the host:port a client on this machine reaches a bound
// listen address at: a wildcard address (0.0.0.0, [::], an empty host)
// becomes 127.0.0.1, which every wildcard listener also serves; wildcard
// reports that change.
func ReachableHost(listen string) (hostPort string, wildcard bool) {
	host, port, err := net.SplitHostPort(listen)
	if err != nil {
		return listen, false
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		return net.JoinHostPort("127.0.0.1", port), true
	}
	return net.JoinHostPort(host, port), false
}

// IsLoopbackListen reports whether a listen address only accepts local
// connections: 127.0.0.0/8, ::1 or localhost. An empty host means every
// interface, so it is not loopback.
func IsLoopbackListen(listen string) bool {
	host, _, err := net.SplitHostPort(listen)
	if err != nil {
		return false
	}
	return IsLoopbackHost(host)
}

// IsLoopbackHost reports whether host (no port) names the loopback interface.
func IsLoopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// checkAllowedHost accepts "host" or "host:port", with no scheme or path.
func checkAllowedHost(h string) error {
	if strings.Contains(h, ",") {
		// GATEWAY_ALLOWED_HOSTS is split at commas; a flag's value is not.
		return fmt.Errorf("--allowed-host %q: give one host per --allowed-host and repeat the flag for several (GATEWAY_ALLOWED_HOSTS takes a comma-separated list)", h)
	}
	if _, _, err := SplitHostMaybePort(h); err != nil || strings.ContainsAny(h, "/?#@ ") {
		return fmt.Errorf("--allowed-host %q: write a host name or host:port, such as gateway.example.com or gateway.example.com:8443, without scheme or path", h)
	}
	return nil
}

// SplitHostMaybePort splits "host", "host:port", "[v6]", "[v6]:port" or a
// bare IPv6 address into host and port (empty when absent).
func SplitHostMaybePort(s string) (host, port string, err error) {
	switch {
	case s == "":
		return "", "", errors.New("empty host")
	case strings.HasPrefix(s, "[") && strings.HasSuffix(s, "]"):
		host = s[1 : len(s)-1]
	case strings.HasPrefix(s, "[") || strings.Count(s, ":") == 1:
		if host, port, err = net.SplitHostPort(s); err != nil {
			return "", "", err
		}
		if !ValidPort(port) {
			return "", "", fmt.Errorf("invalid port %q", port)
		}
	default:
		host = s // a name without port, or a bare IPv6 address
	}
	if host == "" {
		return "", "", errors.New("empty host")
	}
	return host, port, nil
}
