// SPDX-License-Identifier: Apache-2.0

package deploycheck

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"helm.sh/helm/v3/pkg/chartutil"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"
)

// renderedInstance is one entry of the instances file the chart renders,
// with the keys the gateway's parser accepts (internal/instances).
type renderedInstance struct {
	Name                string `json:"name"`
	URL                 string `json:"url"`
	APIKeyFile          string `json:"apiKeyFile,omitempty"`
	CAFile              string `json:"caFile,omitempty"`
	InsecureSkipVerify  bool   `json:"insecureSkipVerify,omitempty"`
	UpstreamTimeout     string `json:"upstreamTimeout,omitempty"`
	UpstreamCompression string `json:"upstreamCompression,omitempty"`
}

// fileSource is where a file the pod reads comes from: a Secret's or a
// ConfigMap's key.
type fileSource struct {
	kind, name, key string
}

// TestHelmInstances renders ci/instances-values.yaml (two Dagu servers)
// and follows every path of the rendered instances file to the object
// and key the pod reads it from.
func TestHelmInstances(t *testing.T) {
	t.Parallel()
	values := readValues(t, filepath.Join(repoRoot(t), "deploy", "helm", "dagu-mcp-gateway", "ci", "instances-values.yaml"))
	rendered, err := renderChart(t, loadChart(t), values)
	if err != nil {
		t.Fatalf("render with ci/instances-values.yaml: %v", err)
	}
	b := decodeRendered(t, rendered)
	checkObjects(t, b, "instances values", []string{
		"ServiceAccount/dagu-mcp", "Service/dagu-mcp", "Deployment/dagu-mcp",
		"PodDisruptionBudget/dagu-mcp", "ConfigMap/dagu-mcp-instances",
	})
	checkWorkload(t, b)
	d, c := b.gateway(t)
	e := env(c)
	for _, name := range []string{"DAGU_URL", "DAGU_API_KEY_FILE", "DAGU_CA_FILE", "DAGU_INSECURE_SKIP_VERIFY"} {
		if _, ok := e[name]; ok {
			t.Errorf("%s is set although the instances file names every Dagu", name)
		}
	}
	file := e["GATEWAY_INSTANCES_FILE"]
	if file == "" {
		t.Fatal("GATEWAY_INSTANCES_FILE is not set")
	}
	cm := b.configMaps[0]
	src := sourceOf(t, &d.Spec.Template.Spec, c, file)
	if src != (fileSource{"ConfigMap", cm.Name, "instances.yaml"}) {
		t.Fatalf("the instances file %s comes from %+v, not the rendered ConfigMap", file, src)
	}
	var doc struct {
		Instances []renderedInstance `json:"instances"`
	}
	if err := yaml.UnmarshalStrict([]byte(cm.Data["instances.yaml"]), &doc); err != nil {
		t.Fatalf("instances file: %v\n%s", err, cm.Data["instances.yaml"])
	}
	if len(doc.Instances) != 2 {
		t.Fatalf("instances file lists %d instances, want 2:\n%s", len(doc.Instances), cm.Data["instances.yaml"])
	}
	prod, staging := doc.Instances[0], doc.Instances[1]
	if prod.Name != "prod" || prod.URL != "https://dagu.prod.example" || prod.UpstreamTimeout != "20s" {
		t.Errorf("prod = %+v", prod)
	}
	if got := sourceOf(t, &d.Spec.Template.Spec, c, prod.APIKeyFile); got != (fileSource{"Secret", "dagu-prod", "api-key"}) {
		t.Errorf("prod's key file %s comes from %+v, want Secret dagu-prod key api-key", prod.APIKeyFile, got)
	}
	if got := sourceOf(t, &d.Spec.Template.Spec, c, prod.CAFile); got != (fileSource{"ConfigMap", cm.Name, "prod-ca.pem"}) || !strings.Contains(cm.Data["prod-ca.pem"], "BEGIN CERTIFICATE") {
		t.Errorf("prod's CA file %s comes from %+v", prod.CAFile, got)
	}
	if staging.UpstreamCompression != "identity" || staging.UpstreamTimeout != "" {
		t.Errorf("staging = %+v", staging)
	}
	if got := sourceOf(t, &d.Spec.Template.Spec, c, staging.APIKeyFile); got != (fileSource{"Secret", "dagu-staging", "dagu-api-key"}) {
		t.Errorf("staging's key file %s comes from %+v, want Secret dagu-staging key dagu-api-key", staging.APIKeyFile, got)
	}
	if got := sourceOf(t, &d.Spec.Template.Spec, c, staging.CAFile); got != (fileSource{"ConfigMap", "staging-ca", "bundle.pem"}) {
		t.Errorf("staging's CA file %s comes from %+v", staging.CAFile, got)
	}
	// The global Secret now holds only the inbound tokens.
	if got := sourceOf(t, &d.Spec.Template.Spec, c, e["GATEWAY_AUTH_TOKEN_FILE"]); got != (fileSource{"Secret", "dagu-mcp", "auth-tokens"}) {
		t.Errorf("token file comes from %+v", got)
	}
	for _, v := range d.Spec.Template.Spec.Volumes {
		if v.Secret != nil && v.Secret.SecretName == "dagu-mcp" && slices.ContainsFunc(v.Secret.Items, func(i corev1.KeyToPath) bool { return i.Key == "dagu-api-key" }) {
			t.Errorf("volume %s mounts the single-Dagu key, which no instance reads (a Secret without it would not mount)", v.Name)
		}
	}
	if strings.Contains(rendered["dagu-mcp-gateway/templates/NOTES.txt"], "/dagu/staging/mcp") == false {
		t.Error("NOTES.txt does not name the staging endpoint")
	}
}

// TestHelmInstancesSecretCreate: with instances, secret.create makes a
// Secret of the inbound tokens alone.
func TestHelmInstancesSecretCreate(t *testing.T) {
	t.Parallel()
	rendered, err := renderChart(t, loadChart(t), chartutil.Values{
		"instances": []any{map[string]any{"name": "prod", "url": "https://dagu.prod.example", "apiKeySecret": map[string]any{"name": "dagu-prod", "key": "k"}}},
		"secret":    map[string]any{"create": true, "authTokens": []any{"0123456789abcdef0123"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	b := decodeRendered(t, rendered)
	checkWorkload(t, b)
	if len(b.secrets) != 1 || len(b.secrets[0].Data) != 1 || b.secrets[0].Data["auth-tokens"] == nil {
		t.Fatalf("want one Secret with auth-tokens only, got %v", b.names)
	}
}

// TestHelmInstancesPassthrough: with config.upstreamAuth=passthrough the
// instances name no key file and the pod mounts no Secret.
func TestHelmInstancesPassthrough(t *testing.T) {
	t.Parallel()
	rendered, err := renderChart(t, loadChart(t), chartutil.Values{
		"config":    map[string]any{"upstreamAuth": "passthrough"},
		"instances": []any{map[string]any{"name": "prod", "url": "https://dagu.prod.example"}, map[string]any{"name": "staging", "url": "https://dagu.staging.example"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	b := decodeRendered(t, rendered)
	checkWorkload(t, b)
	d, _ := b.gateway(t)
	if i := slices.IndexFunc(d.Spec.Template.Spec.Volumes, func(v corev1.Volume) bool { return v.Secret != nil }); i >= 0 || len(b.secrets) != 0 {
		t.Errorf("passthrough instances mount or render a Secret: %v", b.names)
	}
	if file := b.configMaps[0].Data["instances.yaml"]; strings.Contains(file, "apiKeyFile") {
		t.Errorf("passthrough instances name a key file:\n%s", file)
	}
}

// TestHelmRefusesBadInstances: the schema and the templates refuse
// instances the gateway would refuse, naming the value.
func TestHelmRefusesBadInstances(t *testing.T) {
	t.Parallel()
	chrt := loadChart(t)
	key := map[string]any{"name": "dagu-prod", "key": "api-key"}
	inst := func(fields map[string]any) map[string]any {
		out := map[string]any{"name": "prod", "url": "https://dagu.prod.example"}
		for k, v := range fields {
			out[k] = v
		}
		return out
	}
	tests := []struct {
		name      string
		instances []any
		want      string
	}{
		{"bad name", []any{inst(map[string]any{"name": "Prod", "apiKeySecret": key})}, "name"},
		{"long name", []any{inst(map[string]any{"name": strings.Repeat("a", 33), "apiKeySecret": key})}, "name"},
		{"REST path in URL", []any{inst(map[string]any{"url": "https://dagu.example/api/v1", "apiKeySecret": key})}, "url"},
		{"unknown field", []any{inst(map[string]any{"apiKeyFile": "/k", "apiKeySecret": key})}, "apiKeyFile"},
		{"no key", []any{inst(nil)}, "apiKeySecret"},
		{"per-instance auth", []any{inst(map[string]any{"upstreamAuth": "passthrough"})}, "upstreamAuth"},
		{"same name twice", []any{inst(map[string]any{"apiKeySecret": key}), inst(map[string]any{"apiKeySecret": key})}, "used twice"},
		{"two CAs", []any{inst(map[string]any{"apiKeySecret": key, "ca": map[string]any{"pem": "x", "existingConfigMap": "ca"}})}, "ca.pem"},
		{"CA and skip-verify", []any{inst(map[string]any{"apiKeySecret": key, "insecureSkipVerify": true, "ca": map[string]any{"pem": "x"}})}, "insecureSkipVerify"},
		{"bad timeout", []any{inst(map[string]any{"apiKeySecret": key, "upstreamTimeout": "30 seconds"})}, "upstreamTimeout"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := renderChart(t, chrt, chartutil.Values{"instances": tt.instances})
			if err == nil {
				t.Fatal("rendered without error")
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error does not name %q: %v", tt.want, err)
			}
		})
	}
	t.Run("key in passthrough", func(t *testing.T) {
		_, err := renderChart(t, chrt, chartutil.Values{"config": map[string]any{"upstreamAuth": "passthrough"}, "instances": []any{inst(map[string]any{"apiKeySecret": key})}})
		if err == nil || !strings.Contains(err.Error(), "apiKeySecret") {
			t.Fatalf("want an error naming apiKeySecret, got %v", err)
		}
	})
}

// sourceOf follows a file path of the container to the Secret or
// ConfigMap key it is mounted from.
func sourceOf(t *testing.T, pod *corev1.PodSpec, c *corev1.Container, path string) fileSource {
	t.Helper()
	for _, m := range c.VolumeMounts {
		rel, ok := strings.CutPrefix(path, strings.TrimSuffix(m.MountPath, "/")+"/")
		if !ok || strings.Contains(rel, "/") {
			continue
		}
		i := slices.IndexFunc(pod.Volumes, func(v corev1.Volume) bool { return v.Name == m.Name })
		if i < 0 {
			t.Fatalf("mount %s has no volume", m.Name)
		}
		switch v := pod.Volumes[i]; {
		case v.Secret != nil:
			return fileSource{"Secret", v.Secret.SecretName, itemKey(v.Secret.Items, rel)}
		case v.ConfigMap != nil:
			return fileSource{"ConfigMap", v.ConfigMap.Name, itemKey(v.ConfigMap.Items, rel)}
		}
	}
	return fileSource{}
}

// itemKey is the key a volume projects at rel: the item whose path is
// rel, or rel itself when the volume lists no items.
func itemKey(items []corev1.KeyToPath, rel string) string {
	if len(items) == 0 {
		return rel
	}
	for _, i := range items {
		if i.Path == rel {
			return i.Key
		}
	}
	return ""
}

// TestDocsInstancesValues renders the chart with the instances: values
// docs/instances.md's Helm section shows.
func TestDocsInstancesValues(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(filepath.Join(repoRoot(t), "docs", "instances.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, helm, ok := strings.Cut(string(data), "\n## Helm\n")
	if !ok {
		t.Fatal(`docs/instances.md has no "Helm" section`)
	}
	helm, _, _ = strings.Cut(helm, "\n## ")
	m := regexp.MustCompile("(?s)```yaml\n(.*?)```").FindStringSubmatch(helm)
	if m == nil {
		t.Fatal("the Helm part has no YAML block")
	}
	var values map[string]any
	if err := yaml.Unmarshal([]byte(m[1]), &values); err != nil {
		t.Fatal(err)
	}
	rendered, err := renderChart(t, loadChart(t), values)
	if err != nil {
		t.Fatalf("docs/instances.md's instances values: %v", err)
	}
	checkWorkload(t, decodeRendered(t, rendered))
}
