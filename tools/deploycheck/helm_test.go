// SPDX-License-Identifier: Apache-2.0

package deploycheck

import (
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"helm.sh/helm/v3/pkg/chart"
	"helm.sh/helm/v3/pkg/chart/loader"
	"helm.sh/helm/v3/pkg/chartutil"
	"helm.sh/helm/v3/pkg/engine"
	corev1 "k8s.io/api/core/v1"
)

const (
	releaseName      = "gw"
	releaseNamespace = "dagu-mcp"
)

func loadChart(t *testing.T) *chart.Chart {
	t.Helper()
	chrt, err := loader.Load(filepath.Join(repoRoot(t), "deploy", "helm", "dagu-mcp-gateway"))
	if err != nil {
		t.Fatalf("load chart: %v", err)
	}
	if chrt.Schema == nil {
		t.Fatal("the chart has no values.schema.json")
	}
	return chrt
}

// renderChart renders the chart as `helm template` does: values are
// coalesced with the chart's defaults and validated against
// values.schema.json, then every template is executed. Strict mode also
// fails on a template that reads a value the chart does not define.
func renderChart(t *testing.T, chrt *chart.Chart, values chartutil.Values) (map[string]string, error) {
	t.Helper()
	opts := chartutil.ReleaseOptions{Name: releaseName, Namespace: releaseNamespace, Revision: 1, IsInstall: true}
	top, err := chartutil.ToRenderValues(chrt, values, opts, chartutil.DefaultCapabilities)
	if err != nil {
		return nil, err
	}
	return engine.Engine{Strict: true}.Render(chrt, top)
}

// decodeRendered decodes every rendered manifest except NOTES.txt.
func decodeRendered(t *testing.T, rendered map[string]string) *bundle {
	t.Helper()
	files := make([]string, 0, len(rendered))
	for name := range rendered {
		files = append(files, name)
	}
	sort.Strings(files)
	b := &bundle{}
	for _, name := range files {
		if strings.HasSuffix(name, "NOTES.txt") {
			continue
		}
		b.decodeStream(t, name, []byte(rendered[name]))
	}
	return b
}

func readValues(t *testing.T, path string) chartutil.Values {
	t.Helper()
	values, err := chartutil.ReadValuesFile(path)
	if err != nil {
		t.Fatalf("read %s: %v", path, err)
	}
	return values
}

func TestHelmDefaultValues(t *testing.T) {
	rendered, err := renderChart(t, loadChart(t), chartutil.Values{})
	if err != nil {
		t.Fatalf("render with default values: %v", err)
	}
	b := decodeRendered(t, rendered)
	want := []string{
		"ServiceAccount/gw-dagu-mcp-gateway",
		"Service/gw-dagu-mcp-gateway",
		"Deployment/gw-dagu-mcp-gateway",
		"PodDisruptionBudget/gw-dagu-mcp-gateway",
	}
	checkObjects(t, b, "default values", want)
	checkWorkload(t, b)

	d, c := b.gateway(t)
	if d.Spec.Replicas == nil || *d.Spec.Replicas != 2 {
		t.Errorf("replicas = %v, want 2", d.Spec.Replicas)
	}
	if c.Image != "ghcr.io/dagu-mcp-gateway/gateway:0.1.0" {
		t.Errorf("image %q, want the chart's appVersion as tag", c.Image)
	}
	checkEnv(t, env(c), map[string]string{
		"GATEWAY_LISTEN":          "0.0.0.0:8090",
		"DAGU_API_KEY_FILE":       "/var/run/secrets/dagu-mcp-gateway/dagu-api-key",
		"GATEWAY_AUTH_TOKEN_FILE": "/var/run/secrets/dagu-mcp-gateway/auth-tokens",
	})
	if slices.ContainsFunc(c.Args, func(a string) bool { return strings.HasPrefix(a, "--metrics-listen") }) {
		t.Errorf("--metrics-listen rendered although metricsListen is empty: %v", c.Args)
	}
	if _, ok := rendered["dagu-mcp-gateway/templates/NOTES.txt"]; !ok {
		t.Errorf("no NOTES.txt")
	}
}

func TestHelmFullValues(t *testing.T) {
	root := repoRoot(t)
	values := readValues(t, filepath.Join(root, "deploy", "helm", "dagu-mcp-gateway", "ci", "full-values.yaml"))
	rendered, err := renderChart(t, loadChart(t), values)
	if err != nil {
		t.Fatalf("render with ci/full-values.yaml: %v", err)
	}
	b := decodeRendered(t, rendered)
	want := []string{
		"ServiceAccount/dagu-mcp-sa",
		"Secret/dagu-mcp-credentials",
		"ConfigMap/dagu-mcp-ca",
		"ConfigMap/dagu-mcp-reference",
		"Service/dagu-mcp",
		"Deployment/dagu-mcp",
		"HorizontalPodAutoscaler/dagu-mcp",
		"NetworkPolicy/dagu-mcp",
		"PodDisruptionBudget/dagu-mcp",
		"ServiceMonitor/dagu-mcp",
	}
	checkObjects(t, b, "full values", want)
	checkWorkload(t, b)

	d, c := b.gateway(t)
	if d.Spec.Template.Spec.ServiceAccountName != "dagu-mcp-sa" {
		t.Errorf("serviceAccountName %q", d.Spec.Template.Spec.ServiceAccountName)
	}
	if !strings.HasSuffix(c.Image, "@sha256:"+strings.Repeat("0", 64)) {
		t.Errorf("image %q: the digest should win over the tag", c.Image)
	}
	if !slices.Contains(c.Args, "--metrics-listen=0.0.0.0:9091") {
		t.Errorf("args %v lack --metrics-listen", c.Args)
	}
	if !containerPortIs(c, "http", 9090) || !containerPortIs(c, "metrics", 9091) {
		t.Errorf("container ports %v do not follow config.listen and config.metricsListen", c.Ports)
	}
	e := env(c)
	checkEnv(t, e, map[string]string{
		"DAGU_URL":                                    "https://dagu.example.com/dagu",
		"DAGU_CA_FILE":                                "/etc/dagu-mcp-gateway/ca/dagu-ca.pem",
		"DAGU_API_KEY_FILE":                           "/var/run/secrets/dagu-mcp-gateway/dagu-api-key",
		"GATEWAY_AUTH_TOKEN_FILE":                     "/var/run/secrets/dagu-mcp-gateway/auth-tokens",
		"GATEWAY_ALLOWED_HOSTS":                       "dagu-mcp.example.com,dagu-mcp.example.com:8443,dagu-mcp,dagu-mcp.dagu-mcp,dagu-mcp.dagu-mcp.svc,dagu-mcp.dagu-mcp.svc.cluster.local",
		"GATEWAY_MAX_RESPONSE_BYTES":                  "33554432",
		"GATEWAY_UPSTREAM_BODY_BUDGET":                "48MiB",
		"GATEWAY_WORKBOOK_MAX_ROWS":                   "1000000",
		"GATEWAY_WORKBOOK_ROOTS":                      "/srv/workbooks:/srv/shared",
		"GATEWAY_REFERENCE_DIR":                       "/etc/dagu-mcp-gateway/reference",
		"GATEWAY_LOG_FORMAT":                          "text",
		"GATEWAY_WORKBOOK_MAX_MEMORY":                 "128MiB",
		"GATEWAY_WORKBOOK_CONCURRENCY":                "4",
		"GATEWAY_SHARED_STATE":                        "rediss+sentinel://valkey-sentinel-0.valkey.dagu-mcp.svc:26379,valkey-sentinel-1.valkey.dagu-mcp.svc:26379/gateway",
		"GATEWAY_SHARED_STATE_TIMEOUT":                "250ms",
		"GATEWAY_SHARED_STATE_PASSWORD_FILE":          "/var/run/secrets/dagu-mcp-gateway-shared-state/valkey-password",
		"GATEWAY_SHARED_STATE_SENTINEL_PASSWORD_FILE": "/var/run/secrets/dagu-mcp-gateway-shared-state/sentinel-password",
	})
	secret := b.secrets[0]
	if got := string(secret.Data["auth-tokens"]); got != "dummy-token-0123456789abcdef\ndummy-token-fedcba9876543210\n" {
		t.Errorf("auth-tokens = %q", got)
	}
	if d.Spec.Template.Annotations["checksum/secret"] == "" || d.Spec.Template.Annotations["checksum/config"] == "" {
		t.Errorf("pod template lacks checksum annotations: %v", d.Spec.Template.Annotations)
	}
	sm := b.serviceMonitors[0]
	if ep := sm.Spec.Endpoints[0]; ep.Port != "metrics" || ep.Authorization == nil || ep.Authorization.Credentials.Name != "dagu-mcp-metrics-token" {
		t.Errorf("ServiceMonitor endpoint %+v", ep)
	}
	np := b.netpols[0]
	var cidrs []string
	for _, rule := range np.Spec.Egress {
		for _, peer := range rule.To {
			if peer.IPBlock != nil {
				cidrs = append(cidrs, peer.IPBlock.CIDR)
			}
		}
	}
	if !slices.Contains(cidrs, "203.0.113.10/32") || !slices.Contains(cidrs, "2001:db8::/64") {
		t.Errorf("Dagu CIDRs missing from egress: %v", cidrs)
	}
	var redisPorts []int32
	for _, rule := range np.Spec.Egress {
		if len(rule.To) > 0 && rule.To[0].PodSelector != nil && rule.To[0].PodSelector.MatchLabels["app.kubernetes.io/name"] == "valkey" {
			for _, p := range rule.Ports {
				redisPorts = append(redisPorts, p.Port.IntVal)
			}
		}
	}
	if !slices.Equal(redisPorts, []int32{26379, 6380}) {
		t.Errorf("egress to the shared Redis opens ports %v, want the sentinels' and the data nodes' [26379 6380]", redisPorts)
	}
	if items := sharedSecretItems(d.Spec.Template.Spec.Volumes); !slices.Equal(items, []string{"valkey-password", "sentinel-password"}) {
		t.Errorf("the shared-state Secret mounts %v, want both passwords", items)
	}

	// Every setting names a chart value that values.yaml defines, and the
	// full values (or, for --instances, the instances values) render it, as
	// an environment variable or as an argument; the two secret settings
	// only in their file form.
	defaults := loadChart(t).Values
	instancesEnv := renderedEnv(t, filepath.Join(root, "deploy", "helm", "dagu-mcp-gateway", "ci", "instances-values.yaml"))
	for _, s := range gatewaySettings(t, root) {
		if s.chart == "" {
			t.Errorf("flag --%s (%s) names no chart value in the settings table", s.flag, s.env)
		} else if _, err := chartutil.Values(defaults).PathValue(s.chart); err != nil && !isTable(defaults, s.chart) {
			t.Errorf("flag --%s: chart value %s is not in values.yaml", s.flag, s.chart)
		}
		if s.secret {
			continue // given as --dagu-api-key-file and --auth-token-file
		}
		_, inEnv := e[s.env]
		if _, ok := instancesEnv[s.env]; ok {
			inEnv = true
		}
		inArgs := slices.ContainsFunc(c.Args, func(a string) bool { return a == "--"+s.flag || strings.HasPrefix(a, "--"+s.flag+"=") })
		if !inEnv && !inArgs {
			t.Errorf("flag --%s (%s) has no chart value: full-values.yaml renders neither", s.flag, s.env)
		}
	}
}

// sharedSecretItems are the keys the shared-state volume mounts.
func sharedSecretItems(volumes []corev1.Volume) []string {
	var keys []string
	for _, v := range volumes {
		if v.Name == "shared-state" && v.Secret != nil {
			for _, it := range v.Secret.Items {
				keys = append(keys, it.Key)
			}
		}
	}
	return keys
}

// renderedEnv renders the chart with a values file and returns the
// gateway container's environment.
func renderedEnv(t *testing.T, valuesFile string) map[string]string {
	t.Helper()
	rendered, err := renderChart(t, loadChart(t), readValues(t, valuesFile))
	if err != nil {
		t.Fatalf("render with %s: %v", filepath.Base(valuesFile), err)
	}
	_, c := decodeRendered(t, rendered).gateway(t)
	return env(c)
}

// isTable reports whether path names a map in values (PathValue finds
// only leaves).
func isTable(values chartutil.Values, path string) bool {
	_, err := values.Table(path)
	return err == nil
}

// TestHelmNetworkPolicyDefaults enables the NetworkPolicy the way an
// operator would, with one value, and checks it lets DNS and Dagu through.
func TestHelmNetworkPolicyDefaults(t *testing.T) {
	rendered, err := renderChart(t, loadChart(t), chartutil.Values{"networkPolicy": map[string]any{"enabled": true}})
	if err != nil {
		t.Fatal(err)
	}
	b := decodeRendered(t, rendered)
	if len(b.netpols) != 1 {
		t.Fatalf("no NetworkPolicy: %v", b.names)
	}
	checkWorkload(t, b)
}

// TestHelmRefusesBadValues: the schema and the templates refuse values that
// would deploy a broken gateway.
func TestHelmRefusesBadValues(t *testing.T) {
	chrt := loadChart(t)
	tests := []struct {
		name   string
		values map[string]any
		want   string
	}{
		{"unknown top-level value", map[string]any{"replicas": 3}, "replicas"},
		{"unknown config value", map[string]any{"config": map[string]any{"listenAddress": "0.0.0.0:1"}}, "listenAddress"},
		{"bad log level", map[string]any{"config": map[string]any{"logLevel": "verbose"}}, "logLevel"},
		{"bad duration", map[string]any{"config": map[string]any{"cacheTTL": "30 seconds"}}, "cacheTTL"},
		{"decimal byte unit", map[string]any{"config": map[string]any{"maxResponseBytes": "32MB"}}, "maxResponseBytes"},
		{"listen without port", map[string]any{"config": map[string]any{"listen": "0.0.0.0"}}, "listen"},
		{"Dagu URL without scheme", map[string]any{"dagu": map[string]any{"url": "dagu.example.com"}}, "url"},
		{"REST path in Dagu URL", map[string]any{"dagu": map[string]any{"url": "https://dagu.example.com/api/v1"}}, "url"},
		{"short inbound token", map[string]any{"secret": map[string]any{"create": true, "daguApiKey": "dagu_x", "authTokens": []any{"short"}}}, "authTokens"},
		{"created secret without key", map[string]any{"secret": map[string]any{"create": true, "authTokens": []any{"0123456789abcdef0123"}}}, "secret.daguApiKey"},
		{"CA and skip-verify", map[string]any{"dagu": map[string]any{"insecureSkipVerify": true, "ca": map[string]any{"existingConfigMap": "ca"}}}, "insecureSkipVerify"},
		{"service monitor without token", map[string]any{"serviceMonitor": map[string]any{"enabled": true}}, "bearerTokenSecret"},
		{"bad image digest", map[string]any{"image": map[string]any{"digest": "sha256:abc"}}, "digest"},
		{"network policy without DNS peer", map[string]any{"networkPolicy": map[string]any{"enabled": true, "dns": map[string]any{"namespaceSelector": nil, "podSelector": nil}}}, "networkPolicy.dns"},
		{"sentinel password without its Secret", map[string]any{"sharedState": map[string]any{"url": "redis+sentinel://s1:26379/gateway", "sentinelPasswordKey": "sentinel"}}, "sharedState.existingSecret"},
		{"cluster URL with a database", map[string]any{"sharedState": map[string]any{"url": "redis+cluster://a:6379,b:6379/1"}}, "url"},
		{"sentinel URL without a master", map[string]any{"sharedState": map[string]any{"url": "redis+sentinel://s1:26379,s2:26379"}}, "url"},
		{"network policy without Dagu peer", map[string]any{"networkPolicy": map[string]any{"enabled": true, "dagu": map[string]any{"namespaceSelector": nil, "podSelector": nil}}}, "networkPolicy.dagu"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := renderChart(t, chrt, tt.values)
			if err == nil {
				t.Fatalf("rendered without error")
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error does not name %q: %v", tt.want, err)
			}
		})
	}
}

func containerPortIs(c *corev1.Container, name string, port int32) bool {
	return slices.ContainsFunc(c.Ports, func(p corev1.ContainerPort) bool { return p.Name == name && p.ContainerPort == port })
}

// checkObjects fails the test unless b holds exactly the objects want
// names ("Kind/name", in any order); source says what rendered them.
func checkObjects(t *testing.T, b *bundle, source string, want []string) {
	t.Helper()
	if !sameSet(b.names, want) {
		t.Fatalf("%s: rendered %v, want %v", source, b.names, want)
	}
}

// checkEnv reports every variable of want whose value in e differs.
func checkEnv(t *testing.T, e, want map[string]string) {
	t.Helper()
	for name, value := range want {
		if e[name] != value {
			t.Errorf("%s = %q, want %q", name, e[name], value)
		}
	}
}

func sameSet(got, want []string) bool {
	g, w := slices.Clone(got), slices.Clone(want)
	slices.Sort(g)
	slices.Sort(w)
	return slices.Equal(g, w)
}

// TestHelmLocalImage renders the chart with docs/install.md's values for the
// image `make docker` builds, which the Helm snippet uses until a release
// exists: the schema takes them and the pods run that image.
func TestHelmLocalImage(t *testing.T) {
	values := chartutil.Values{"image": map[string]any{"repository": "dagu-mcp-gateway", "tag": "local"}}
	rendered, err := renderChart(t, loadChart(t), values)
	if err != nil {
		t.Fatalf("render with the local image: %v", err)
	}
	_, c := decodeRendered(t, rendered).gateway(t)
	if c.Image != "dagu-mcp-gateway:local" {
		t.Errorf("image %q, want dagu-mcp-gateway:local", c.Image)
	}
	install, err := os.ReadFile(filepath.Join(repoRoot(t), "docs", "install.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(install), "--set image.repository=dagu-mcp-gateway --set image.tag=local") {
		t.Error("docs/install.md's Helm snippet no longer sets the local image this test renders")
	}
}
