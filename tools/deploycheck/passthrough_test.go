// SPDX-License-Identifier: Apache-2.0

package deploycheck

import (
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"

	"helm.sh/helm/v3/pkg/chartutil"
	corev1 "k8s.io/api/core/v1"
)

// TestHelmPassthroughNeedsNoSecret: in passthrough the gateway holds no
// Dagu key and no inbound tokens, so the pod must start without any
// Secret: nothing mounted, no key or token file configured, and
// secret.create=true renders no Secret instead of failing for a key.
func TestHelmPassthroughNeedsNoSecret(t *testing.T) {
	t.Parallel()
	chrt := loadChart(t)
	for _, tt := range []struct {
		name   string
		secret map[string]any
	}{
		{"existing secret", nil},
		{"secret.create", map[string]any{"create": true}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			values := chartutil.Values{"config": map[string]any{"upstreamAuth": "passthrough"}}
			if tt.secret != nil {
				values["secret"] = tt.secret
			}
			rendered, err := renderChart(t, chrt, values)
			if err != nil {
				t.Fatalf("passthrough does not render: %v", err)
			}
			b := decodeRendered(t, rendered)
			checkWorkload(t, b)
			if len(b.secrets) != 0 {
				t.Errorf("passthrough renders a Secret: %v", b.names)
			}
			d, c := b.gateway(t)
			if i := slices.IndexFunc(d.Spec.Template.Spec.Volumes, func(v corev1.Volume) bool { return v.Secret != nil }); i >= 0 {
				t.Errorf("passthrough mounts Secret volume %+v: the pod cannot start without the keys it lists", d.Spec.Template.Spec.Volumes[i])
			}
			e := env(c)
			for _, name := range []string{"DAGU_API_KEY_FILE", "GATEWAY_AUTH_TOKEN_FILE"} {
				if _, ok := e[name]; ok {
					t.Errorf("passthrough sets %s", name)
				}
			}
			if e["GATEWAY_UPSTREAM_AUTH"] != "passthrough" {
				t.Errorf("GATEWAY_UPSTREAM_AUTH = %q", e["GATEWAY_UPSTREAM_AUTH"])
			}
		})
	}
	_, err := renderChart(t, chrt, chartutil.Values{
		"config": map[string]any{"upstreamAuth": "passthrough"},
		"secret": map[string]any{"create": true, "daguApiKey": "dagu_service_key"},
	})
	if err == nil || !strings.Contains(err.Error(), "passthrough") {
		t.Errorf("a service key given in passthrough: err = %v, want a refusal naming passthrough", err)
	}
}

// TestHelmServiceModeMountsBothSecretKeys: the service mode still reads
// the Dagu key and the inbound tokens from the Secret.
func TestHelmServiceModeMountsBothSecretKeys(t *testing.T) {
	t.Parallel()
	rendered, err := renderChart(t, loadChart(t), chartutil.Values{})
	if err != nil {
		t.Fatal(err)
	}
	d, _ := decodeRendered(t, rendered).gateway(t)
	var keys []string
	for _, v := range d.Spec.Template.Spec.Volumes {
		if v.Secret != nil {
			for _, item := range v.Secret.Items {
				keys = append(keys, item.Key)
			}
		}
	}
	if !sameSet(keys, []string{"dagu-api-key", "auth-tokens"}) {
		t.Errorf("Secret volume items %v, want dagu-api-key and auth-tokens", keys)
	}
}

// notesURL finds the in-cluster MCP URL NOTES.txt prints.
var notesURL = regexp.MustCompile(`http://[^\s/]+/mcp`)

// TestHelmAllowedHostsKeepTheServiceNames: once an operator sets
// allowedHosts (for an ingress, as NOTES advises), the Host check is on,
// so the Service's cluster names must be accepted too, including the one
// NOTES prints; without allowedHosts there is no Host check to satisfy.
func TestHelmAllowedHostsKeepTheServiceNames(t *testing.T) {
	t.Parallel()
	chrt := loadChart(t)
	rendered, err := renderChart(t, chrt, chartutil.Values{"config": map[string]any{"allowedHosts": []any{"dagu-mcp.example.com"}}})
	if err != nil {
		t.Fatal(err)
	}
	_, c := decodeRendered(t, rendered).gateway(t)
	hosts := strings.Split(env(c)["GATEWAY_ALLOWED_HOSTS"], ",")
	svc := "gw-dagu-mcp-gateway"
	want := []string{"dagu-mcp.example.com", svc, svc + "." + releaseNamespace, svc + "." + releaseNamespace + ".svc",
		svc + "." + releaseNamespace + ".svc.cluster.local"}
	if !sameSet(hosts, want) {
		t.Errorf("GATEWAY_ALLOWED_HOSTS = %v, want %v", hosts, want)
	}
	printed := notesURL.FindString(rendered["dagu-mcp-gateway/templates/NOTES.txt"])
	u, err := url.Parse(printed)
	if err != nil || u.Hostname() == "" {
		t.Fatalf("NOTES.txt prints no MCP URL: %q", printed)
	}
	if !slices.Contains(hosts, u.Hostname()) {
		t.Errorf("NOTES.txt prints %s, whose host %s the gateway would answer 403", printed, u.Hostname())
	}

	rendered, err = renderChart(t, chrt, chartutil.Values{})
	if err != nil {
		t.Fatal(err)
	}
	if _, c := decodeRendered(t, rendered).gateway(t); env(c)["GATEWAY_ALLOWED_HOSTS"] != "" {
		t.Errorf("without allowedHosts the chart turns the Host check on: %q", env(c)["GATEWAY_ALLOWED_HOSTS"])
	}
}
