// SPDX-License-Identifier: Apache-2.0

package deploycheck

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/goreleaser/goreleaser/v2/pkg/config"
)

// composeFile is the subset of the Compose specification deploy/compose.yaml
// uses. Decoding is strict, so a key outside this subset (a typo, or a
// feature nobody reviewed here) fails the check.
type composeFile struct {
	Name     string                    `json:"name"`
	Services map[string]composeService `json:"services"`
	Secrets  map[string]struct {
		File string `json:"file"`
	} `json:"secrets"`
}

type composeService struct {
	Image       string            `json:"image"`
	Command     []string          `json:"command"`
	EnvFile     []string          `json:"env_file"`
	Environment map[string]string `json:"environment"`
	Secrets     []string          `json:"secrets"`
	Ports       []string          `json:"ports"`
	User        string            `json:"user"`
	ReadOnly    bool              `json:"read_only"`
	CapDrop     []string          `json:"cap_drop"`
	SecurityOpt []string          `json:"security_opt"`
	Tmpfs       []string          `json:"tmpfs"`
	Healthcheck *struct {
		Test        []string `json:"test"`
		Interval    string   `json:"interval"`
		Timeout     string   `json:"timeout"`
		Retries     int      `json:"retries"`
		StartPeriod string   `json:"start_period"`
	} `json:"healthcheck"`
	Restart string `json:"restart"`
}

func TestCompose(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(repoRoot(t), "deploy", "compose.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var f composeFile
	if err := unmarshalStrict(data, &f); err != nil {
		t.Fatalf("deploy/compose.yaml: %v", err)
	}
	gw, ok := f.Services["gateway"]
	if !ok || len(f.Services) != 1 {
		t.Fatalf("want exactly the gateway service (Dagu commented out), got %v", f.Services)
	}
	if gw.Healthcheck == nil || !slices.Equal(gw.Healthcheck.Test, []string{"CMD", "/dagu-mcp-gateway", "healthcheck"}) {
		t.Errorf("healthcheck must run the binary's own probe, not a shell: %+v", gw.Healthcheck)
	}
	if !gw.ReadOnly || gw.User == "" || strings.HasPrefix(gw.User, "0") || strings.HasPrefix(gw.User, "root") {
		t.Errorf("the gateway must run read-only and non-root: read_only=%v user=%q", gw.ReadOnly, gw.User)
	}
	if !slices.Contains(gw.CapDrop, "ALL") || !slices.Contains(gw.SecurityOpt, "no-new-privileges:true") {
		t.Errorf("cap_drop ALL and no-new-privileges expected: %v %v", gw.CapDrop, gw.SecurityOpt)
	}
	if len(gw.EnvFile) == 0 {
		t.Errorf("no env_file")
	}
	for _, p := range gw.Ports {
		if !strings.HasPrefix(p, "127.0.0.1:") {
			t.Errorf("port %q is published beyond loopback", p)
		}
	}
	for _, s := range gw.Secrets {
		if _, ok := f.Secrets[s]; !ok {
			t.Errorf("secret %s is not declared", s)
		}
	}
	for name, want := range map[string]string{
		"DAGU_API_KEY_FILE":       "/run/secrets/dagu-api-key",
		"GATEWAY_AUTH_TOKEN_FILE": "/run/secrets/auth-tokens",
	} {
		if gw.Environment[name] != want {
			t.Errorf("%s = %q, want %q", name, gw.Environment[name], want)
		}
	}
	if !strings.Contains(string(data), "#   image: ghcr.io/dagu-org/dagu") {
		t.Errorf("the commented-out Dagu service for a local trial is missing")
	}
}

// TestSystemdUnit checks the hardening directives of the unit file, line by
// line (the file is INI-like; no systemd needed).
func TestSystemdUnit(t *testing.T) {
	f, err := os.Open(filepath.Join(repoRoot(t), "deploy", "systemd", "dagu-mcp-gateway.service"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	directives := map[string][]string{}
	section := ""
	scanner := bufio.NewScanner(f)
	for scanner.Scan() {
		line := strings.TrimSpace(scanner.Text())
		switch {
		case line == "" || strings.HasPrefix(line, "#") || strings.HasPrefix(line, ";"):
		case strings.HasPrefix(line, "["):
			section = line
		default:
			key, value, ok := strings.Cut(line, "=")
			if !ok {
				t.Fatalf("not a directive: %q", line)
			}
			directives[section+key] = append(directives[section+key], value)
		}
	}
	if err := scanner.Err(); err != nil {
		t.Fatal(err)
	}
	for key, want := range map[string]string{
		"[Service]DynamicUser":             "yes",
		"[Service]ProtectSystem":           "strict",
		"[Service]ProtectHome":             "yes",
		"[Service]NoNewPrivileges":         "yes",
		"[Service]PrivateTmp":              "yes",
		"[Service]CapabilityBoundingSet":   "",
		"[Service]RestrictAddressFamilies": "AF_INET AF_INET6 AF_UNIX",
		"[Service]LoadCredential":          "dagu-key:/etc/dagu-mcp-gateway/dagu-key",
		"[Service]EnvironmentFile":         "-/etc/dagu-mcp-gateway/gateway.env",
		"[Service]ExecStart":               "/usr/local/bin/dagu-mcp-gateway serve",
		"[Install]WantedBy":                "multi-user.target",
	} {
		if got := directives[key]; !slices.Contains(got, want) {
			t.Errorf("%s = %q, want %q", key, got, want)
		}
	}
	if !slices.Contains(directives["[Service]SystemCallFilter"], "@system-service") {
		t.Errorf("SystemCallFilter lacks @system-service: %v", directives["[Service]SystemCallFilter"])
	}
	if !slices.Contains(directives["[Service]Environment"], "DAGU_API_KEY_FILE=%d/dagu-key") {
		t.Errorf("DAGU_API_KEY_FILE does not point at the credential: %v", directives["[Service]Environment"])
	}
}

// TestDockerfile: every base image is pinned by digest, the image runs as
// non-root, stays distroless and declares the binary's own HEALTHCHECK and
// the OCI labels.
func TestDockerfile(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(repoRoot(t), "deploy", "Dockerfile"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	from := regexp.MustCompile(`(?m)^FROM\s+(?:--platform=\S+\s+)?(\S+)`)
	pinned := regexp.MustCompile(`^[^@\s]+:[^@\s]+@sha256:[0-9a-f]{64}$`)
	matches := from.FindAllStringSubmatch(text, -1)
	if len(matches) < 2 {
		t.Fatalf("want a build and a runtime stage, got %v", matches)
	}
	for _, m := range matches {
		if !pinned.MatchString(m[1]) {
			t.Errorf("base image %s is not pinned as tag@sha256:digest", m[1])
		}
	}
	if runtime := matches[len(matches)-1][1]; !strings.HasPrefix(runtime, "gcr.io/distroless/static-debian12:nonroot@") {
		t.Errorf("runtime image %s is not distroless static nonroot", runtime)
	}
	for _, want := range []string{
		`HEALTHCHECK `,
		`CMD ["/dagu-mcp-gateway", "healthcheck"]`,
		`ENTRYPOINT ["/dagu-mcp-gateway"]`,
		"USER nonroot:nonroot",
		"org.opencontainers.image.source=",
		"org.opencontainers.image.version=",
		"org.opencontainers.image.licenses=\"Apache-2.0\"",
		"CGO_ENABLED=0",
		"go build -trimpath -tags nodemo ", // the server build, as make build's
	} {
		if !strings.Contains(text, want) {
			t.Errorf("deploy/Dockerfile lacks %q", want)
		}
	}
}

// TestGoReleaserConfig loads .goreleaser.yaml with GoReleaser's own strict
// loader and checks the promises of the release: static binaries for three
// systems on two architectures, the version stamped into the binary,
// checksums and SBOMs.
func TestGoReleaserConfig(t *testing.T) {
	cfg, err := config.Load(filepath.Join(repoRoot(t), ".goreleaser.yaml"))
	if err != nil {
		t.Fatalf(".goreleaser.yaml: %v", err)
	}
	if cfg.Version != 2 || len(cfg.Builds) != 1 {
		t.Fatalf("want a version 2 configuration with one build, got version %d and %d builds", cfg.Version, len(cfg.Builds))
	}
	b := cfg.Builds[0]
	if b.Main != "./cmd/gateway" || !slices.Contains(b.Env, "CGO_ENABLED=0") {
		t.Errorf("build: main %q env %v", b.Main, b.Env)
	}
	if b.Binary != binaryName {
		t.Errorf("build: binary %q, want %q", b.Binary, binaryName)
	}
	if !sameSet(b.Goos, []string{"linux", "darwin", "windows"}) || !sameSet(b.Goarch, []string{"amd64", "arm64"}) {
		t.Errorf("build targets %v x %v", b.Goos, b.Goarch)
	}
	if !slices.ContainsFunc(b.Ldflags, func(f string) bool { return strings.Contains(f, "-X main.version={{ .Version }}") }) {
		t.Errorf("ldflags %v do not stamp main.version", b.Ldflags)
	}
	if cfg.Checksum.Disable || cfg.Checksum.Algorithm != "sha256" {
		t.Errorf("checksums: %+v", cfg.Checksum)
	}
	if len(cfg.SBOMs) == 0 || cfg.SBOMs[0].Cmd != "go" || !slices.Contains(cfg.SBOMs[0].Args, "-modfile=../tools/go.mod") {
		t.Errorf("SBOMs must be generated by the tool pinned in tools/go.mod: %+v", cfg.SBOMs)
	}
}

// binaryName is the one name of the gateway's binary: the release archives,
// make build, the image's entrypoint, the compose healthcheck and the
// systemd unit.
const binaryName = "dagu-mcp-gateway"

// TestMakeBuildNamesTheBinary: make build writes bin/dagu-mcp-gateway, the
// name every deploy snippet uses, with the image's server build (-tags
// nodemo), and make docker tags the image the snippets use until a release
// exists.
func TestMakeBuildNamesTheBinary(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(repoRoot(t), "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`(?m)^BINARY\s*:=\s*\$\(BIN_DIR\)/` + binaryName + `$`),
		regexp.MustCompile(`(?m)^IMAGE\s*\?=\s*` + binaryName + `:local$`),
		// The server build, as the image's (TestDockerfile).
		regexp.MustCompile(`(?m)^\tCGO_ENABLED=0 \$\(GO\) build -trimpath -tags nodemo .*-o \$\(BINARY\) \./cmd/gateway$`),
	} {
		if !want.Match(data) {
			t.Errorf("Makefile lacks a line matching %s", want)
		}
	}
}
