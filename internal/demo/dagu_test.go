// SPDX-License-Identifier: Apache-2.0

package demo

import (
	"errors"
	"net"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
)

// TestDaguPort: the flag wins over the environment, which wins over the
// default; anything but a port from 0 to 65535 is refused naming where
// it came from.
func TestDaguPort(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name      string
		flagGiven bool
		flag      int
		env       string
		want      int
		err       string
	}{
		{"default", false, DefaultDaguPort, "", DefaultDaguPort, ""},
		{"environment", false, DefaultDaguPort, " 9123 ", 9123, ""},
		{"flag over environment", true, 9200, "9123", 9200, ""},
		{"a free port each start", true, 0, "", 0, ""},
		{"environment not a number", false, DefaultDaguPort, "80a", 0, "GATEWAY_DEMO_DAGU_PORT \"80a\" is not a port"},
		{"environment out of range", false, DefaultDaguPort, "70000", 0, "GATEWAY_DEMO_DAGU_PORT 70000 is not a port"},
		{"flag out of range", true, -1, "", 0, "--dagu-port -1 is not a port"},
	} {
		got, err := DaguPort(tc.flagGiven, tc.flag, tc.env)
		if got != tc.want || (err == nil) != (tc.err == "") || (err != nil && !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("%s: DaguPort = %d, %v; want %d, %q", tc.name, got, err, tc.want, tc.err)
		}
	}
}

// TestStartDaguOnItsPort: the demo Dagu listens on the port asked for (0:
// a free one), and a port in use is an error that says what to do.
func TestStartDaguOnItsPort(t *testing.T) {
	t.Parallel()
	srv, url, err := StartDagu("dagu_demo_k", fakedagu.ProfileCurrent, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(url, "http://"))
	if !strings.HasPrefix(url, "http://127.0.0.1:") || port == "0" {
		t.Fatalf("demo Dagu at %s", url)
	}
	n, _ := strconv.Atoi(port)
	_, _, err = StartDagu("dagu_demo_k", fakedagu.ProfileCurrent, n)
	if !errors.Is(err, syscall.EADDRINUSE) || !strings.Contains(err.Error(), "--dagu-port or GATEWAY_DEMO_DAGU_PORT") {
		t.Errorf("a second demo Dagu on %s: %v", port, err)
	}
}

// TestHelpNamesTheDefaultPort: the demo's help says where its Dagu
// listens.
func TestHelpNamesTheDefaultPort(t *testing.T) {
	t.Parallel()
	if !strings.Contains(Help, "127.0.0.1:"+strconv.Itoa(DefaultDaguPort)) {
		t.Errorf("the demo's help does not name 127.0.0.1:%d", DefaultDaguPort)
	}
}
